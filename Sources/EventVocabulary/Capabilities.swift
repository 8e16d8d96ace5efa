/// The parameters of one absolute axis, as `struct input_absinfo` holds them.
public struct AbsInfo: Hashable, Sendable {
    /// Smallest value.
    public var minimum: Int32
    /// Largest value.
    public var maximum: Int32
    /// Changes smaller than this are smoothed by the kernel; 0 because the engine filters itself.
    public var fuzz: Int32
    /// Values within this distance of the centre read as the centre.
    public var flat: Int32
    /// Units per millimetre (or per radian; per g and per deg/s on a motion sensor); 0 when meaningless.
    public var resolution: Int32
    /// The value at rest: the device is created with it and `releaseAll` returns to it.
    public var value: Int32

    /// An axis with every field given.
    public init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0, value: Int32 = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
        self.value = value
    }

    /// A stick axis as xpad reports it: -32768...32767, centred at 0.
    public static let stick = AbsInfo(minimum: -32768, maximum: 32767)
    /// A hat (d-pad) axis: -1...1, centred at 0.
    public static let hat = AbsInfo(minimum: -1, maximum: 1)
}

/// One absolute axis a device carries.
public struct AbsoluteAxis: Hashable, Sendable {
    /// The `ABS_*` code.
    public var code: UInt16
    /// Its range and rest value.
    public var info: AbsInfo

    /// An axis with its code and parameters.
    public init(code: UInt16, info: AbsInfo) {
        self.code = code
        self.info = info
    }
}

/// The codes one virtual device carries, each list sorted by code without duplicates.
public struct DeviceCapabilities: Hashable, Sendable {
    /// `EV_KEY` codes.
    public var keys: [UInt16] = []
    /// `EV_REL` codes.
    public var relativeAxes: [UInt16] = []
    /// `EV_ABS` codes with their parameters.
    public var absoluteAxes: [AbsoluteAxis] = []
    /// `EV_MSC` codes (`MSC_TIMESTAMP` on the motion sensor).
    public var miscCodes: [UInt16] = []

    /// An empty set.
    public init() {}

    /// A set with the given codes (sorted and deduplicated here).
    public init(keys: [UInt16] = [], relativeAxes: [UInt16] = [], absoluteAxes: [AbsoluteAxis] = [], miscCodes: [UInt16] = []) {
        for key in keys { insertKey(key) }
        for axis in relativeAxes { insertRelative(axis) }
        for axis in absoluteAxes { insertAbsolute(axis.code, axis.info) }
        for code in miscCodes { insertMisc(code) }
    }

    /// True when the device would carry nothing.
    public var isEmpty: Bool { keys.isEmpty && relativeAxes.isEmpty && absoluteAxes.isEmpty && miscCodes.isEmpty }

    /// Adds a key code.
    public mutating func insertKey(_ code: UInt16) {
        Self.insertSorted(code, into: &keys)
    }

    /// Adds a relative axis.
    public mutating func insertRelative(_ code: UInt16) {
        Self.insertSorted(code, into: &relativeAxes)
    }

    /// Adds an `EV_MSC` code.
    public mutating func insertMisc(_ code: UInt16) {
        Self.insertSorted(code, into: &miscCodes)
    }

    /// Adds an absolute axis; the first parameters given for a code win.
    public mutating func insertAbsolute(_ code: UInt16, _ info: AbsInfo) {
        guard !absoluteAxes.contains(where: { $0.code == code }) else { return }
        let index = absoluteAxes.firstIndex(where: { $0.code > code }) ?? absoluteAxes.endIndex
        absoluteAxes.insert(AbsoluteAxis(code: code, info: info), at: index)
    }

    /// The parameters of an absolute axis, or nil when the device lacks it.
    public func absInfo(_ code: UInt16) -> AbsInfo? {
        absoluteAxes.first(where: { $0.code == code })?.info
    }

    /// True when the device carries this key code.
    public func hasKey(_ code: UInt16) -> Bool { keys.contains(code) }

    /// True when the device carries this relative axis.
    public func hasRelative(_ code: UInt16) -> Bool { relativeAxes.contains(code) }

    /// True when the device carries this `EV_MSC` code.
    public func hasMisc(_ code: UInt16) -> Bool { miscCodes.contains(code) }

    /// Adds everything in `other`.
    public mutating func formUnion(_ other: DeviceCapabilities) {
        for key in other.keys { insertKey(key) }
        for axis in other.relativeAxes { insertRelative(axis) }
        for axis in other.absoluteAxes { insertAbsolute(axis.code, axis.info) }
        for code in other.miscCodes { insertMisc(code) }
    }

    private static func insertSorted(_ code: UInt16, into list: inout [UInt16]) {
        let index = list.firstIndex(where: { $0 >= code }) ?? list.endIndex
        if index < list.endIndex, list[index] == code { return }
        list.insert(code, at: index)
    }
}

/// What every device must carry: one entry per device kind, nil when no profile needs it.
///
/// Built from the union over all profiles of a configuration, so a profile switch never
/// needs a new device. Classification helpers are added so udev sees the right class:
/// a gamepad always carries `BTN_SOUTH` (= `BTN_GAMEPAD`, which SDL needs to map it) and at
/// least two gamepad buttons (`BTN_EAST` is added when needed) so it is a joystick, and centred
/// `ABS_X` and `ABS_Y` sticks, which SDL's device test without udev (Flatpak, Snap, Steam's
/// runtime, `SDL_JOYSTICK_DISABLE_UDEV=1`) and Godot require; a mouse always carries `REL_X`,
/// `REL_Y` and `BTN_LEFT` so it is a mouse to udev and libinput; a motion sensor always carries
/// all of `MotionSensors.capabilities`, the pointer all of `AbsolutePointer.capabilities`.
public struct Capabilities: Hashable, Sendable {
    /// The devices, indexed by `OutputDeviceKind.rawValue`.
    private var devices: [DeviceCapabilities?]

    /// No devices.
    public init() {
        devices = Array(repeating: nil, count: OutputDeviceKind.count)
    }

    /// Capabilities with the given devices.
    public init(_ devices: [OutputDeviceKind: DeviceCapabilities]) {
        self.init()
        for (kind, codes) in devices { self[kind] = codes }
    }

    /// The device of one kind.
    public subscript(kind: OutputDeviceKind) -> DeviceCapabilities? {
        get { devices[Int(kind.rawValue)] }
        set { devices[Int(kind.rawValue)] = newValue }
    }

    /// The kinds that exist, in `OutputDeviceKind` order.
    public var deviceKinds: [OutputDeviceKind] {
        OutputDeviceKind.allCases.filter { self[$0] != nil }
    }

    /// Adds a key code to `device`, or (when nil) to the device it routes to; unroutable codes are ignored.
    public mutating func insertKey(_ code: UInt16, on device: OutputDeviceKind? = nil) {
        guard let kind = device ?? OutputDeviceKind.routeKey(code) else { return }
        self[kind, default: DeviceCapabilities()].insertKey(code)
    }

    /// Adds a relative axis to `device`.
    public mutating func insertRelative(_ code: UInt16, on device: OutputDeviceKind) {
        self[device, default: DeviceCapabilities()].insertRelative(code)
    }

    /// Adds an absolute axis to `device`.
    public mutating func insertAbsolute(_ code: UInt16, _ info: AbsInfo, on device: OutputDeviceKind) {
        self[device, default: DeviceCapabilities()].insertAbsolute(code, info)
    }

    /// Adds every device and code in `other`.
    public mutating func formUnion(_ other: Capabilities) {
        for kind in OutputDeviceKind.allCases {
            if let device = other[kind] { self[kind, default: DeviceCapabilities()].formUnion(device) }
        }
    }

    /// Adds the codes udev and SDL need to classify each existing device right (see the type's doc).
    public mutating func addClassificationCodes() {
        for kind in deviceKinds {
            self[kind]?.addClassificationCodes(for: kind)
        }
    }

    private subscript(kind: OutputDeviceKind, default defaultValue: DeviceCapabilities) -> DeviceCapabilities {
        get { self[kind] ?? defaultValue }
        set { self[kind] = newValue }
    }
}

extension DeviceCapabilities {
    /// Adds the codes a device of `kind` needs to be classified as one (its description's).
    mutating func addClassificationCodes(for kind: OutputDeviceKind) {
        let details = kind.details
        formUnion(details.classificationCodes)
        details.classify?(&self)
    }
}
