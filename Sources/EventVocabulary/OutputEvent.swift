/// The virtual devices the bridge can create; each exists only when some profile needs it.
///
/// Everything the mapping keeps per device (capabilities, output state, frames) is indexed by
/// `rawValue`, for any number of kinds. A kind is its case here, its name, the codes it
/// accepts, and its classification codes (`Capabilities.addClassificationCodes`).
public enum OutputDeviceKind: UInt8, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// A gamepad: `BTN_SOUTH`..., `BTN_DPAD_*`, `ABS_*`. udev classifies it as a joystick.
    case gamepad = 0
    /// A mouse: `BTN_LEFT`...`BTN_TASK` and every `REL_*` axis.
    case mouse = 1
    /// A keyboard: `KEY_*` (including media keys) and the other non-gamepad buttons.
    case keyboard = 2
    /// The motion sensors (`INPUT_PROP_ACCELEROMETER`): acceleration, angular rate and
    /// `MSC_TIMESTAMP` (`MotionSensors`), made when a profile sets `motion-sensors = true`.
    /// No code routes to it and no setting's `device` may name it.
    case motion = 3
    /// The absolute pointer (`AbsolutePointer`): `ABS_X/ABS_Y` on the screen and the mouse
    /// buttons, made when a profile has `pointer = { ... }`. No code routes to it and no
    /// setting's `device` may name it.
    case pointer = 4
    /// The touchpad (`TouchSurface`): the pad as a real touchpad, made when a profile has
    /// `touchpad = { mode = "touchpad" }`. No code routes to it and no setting may name it.
    case touchpad = 5

    /// The number of kinds: the size of every per-device table.
    public static let count = allCases.count

    /// The kind with this config name (`"gamepad"`, `"mouse"`, `"keyboard"`, `"motion"`, `"pointer"`, `"touchpad"`), or nil.
    public init?(name: String) {
        guard let kind = Self.allCases.first(where: { $0.description == name }) else { return nil }
        self = kind
    }

    /// The device a code of this type goes to when the profile does not name one, or nil when
    /// the bridge never emits it (`EV_SYN`/unknown types, the tablet/touch range
    /// `BTN_DIGI`...`BTN_WHEEL`, out-of-range codes).
    ///
    /// Routing keeps classes apart: mouse buttons and relative axes to the mouse (a pad with
    /// a mouse button would be taken for a mouse), joystick/gamepad buttons, d-pad buttons,
    /// trigger-happy buttons and absolute axes to the gamepad, every other key to the keyboard.
    public static func route(type: UInt16, code: UInt16) -> OutputDeviceKind? {
        switch type {
        case EventType.rel:
            return code <= EventCode.relMax ? .mouse : nil
        case EventType.abs:
            return code <= EventCode.absMax ? .gamepad : nil
        case EventType.key:
            return routeKey(code)
        default:
            return nil
        }
    }

    /// The device an `EV_KEY` code goes to; see `route(type:code:)`.
    public static func routeKey(_ code: UInt16) -> OutputDeviceKind? {
        switch code {
        case EventCode.btnLeft...EventCode.btnTask:
            return .mouse
        case EventCode.btnMisc..<EventCode.btnLeft, EventCode.btnJoystick..<EventCode.btnDigi:
            return .gamepad
        case EventCode.btnDpadUp...EventCode.btnDpadRight,
             EventCode.btnTriggerHappy1...EventCode.btnTriggerHappy40:
            return .gamepad
        case EventCode.btnDigi..<EventCode.btnWheel:
            return nil
        case 1...EventCode.keyMax:
            return .keyboard
        default:
            return nil
        }
    }

    /// The kind's description: identity, properties, classification codes, settings (one file
    /// per kind under `Kinds/`). A new kind is a case here, its line below, and its file.
    public var details: DeviceKindDescription {
        switch self {
        case .gamepad: .gamepad
        case .mouse: .mouse
        case .keyboard: .keyboard
        case .motion: .motion
        case .pointer: .pointer
        case .touchpad: .touchpad
        }
    }

    /// Whether a device of this kind may carry the code without udev, libinput or SDL taking it
    /// for another class: one of its own codes for a kind of fixed codes, else the kind `route` names.
    public func accepts(type: UInt16, code: UInt16) -> Bool {
        if let own = details.ownCodes { return own.carries(type: type, code: code) }
        return Self.route(type: type, code: code) == self
    }

    /// Whether a setting's `device = ...` may name this kind.
    public var takesSettings: Bool { details.takesSettings }

    /// The kinds a setting may name that accept every one of `codes` (as `(type, code)`), in `allCases` order.
    public static func kinds(accepting codes: [(type: UInt16, code: UInt16)]) -> [OutputDeviceKind] {
        allCases.filter { kind in kind.takesSettings && codes.allSatisfy { kind.accepts(type: $0.type, code: $0.code) } }
    }

    /// The config name: "gamepad", "mouse", "keyboard", "motion" or "pointer".
    public var description: String { details.name }
}

/// One Linux input event for one virtual device (type and code as in `linux/input-event-codes.h`).
///
/// Type, code and value come first, in the order and sizes of `struct input_event`'s last
/// eight bytes, so a writer copies them into a record as one eight-byte word.
public struct OutputEvent: Hashable, Sendable {
    /// `EV_KEY`, `EV_REL`, `EV_ABS`, `EV_MSC` or `EV_SYN`.
    public var type: UInt16
    /// The code within the type.
    public var code: UInt16
    /// 1/0 for keys, a delta for relative axes, a position for absolute axes, microseconds for `MSC_TIMESTAMP`.
    public var value: Int32
    /// The device to write it to.
    public var device: OutputDeviceKind

    /// An event with every field given.
    public init(device: OutputDeviceKind, type: UInt16, code: UInt16, value: Int32) {
        self.device = device
        self.type = type
        self.code = code
        self.value = value
    }

    /// True for `SYN_REPORT`.
    public var isSynReport: Bool { type == EventType.syn && code == EventCode.synReport }
}

/// The events one engine call produced, in order, ready to be written.
///
/// The caller owns it and calls `removeAll()` after writing. It owns its storage (noncopyable,
/// so no copy-on-write check per event): appending stores the event and counts it, and
/// allocates nothing in steady state (the storage only grows, doubling, when a call produces
/// more events than ever before). Every device's changes within one frame end with one
/// `SYN_REPORT` for that device; a press and a release of one key are never in one frame.
/// Sendable unchecked: being noncopyable, it is the only way to its storage.
public struct OutputBuffer: ~Copyable, @unchecked Sendable {
    // The engine appends through inlined code from its own module: what that code touches is
    // usable from inlinable code.
    @usableFromInline var storage: UnsafeMutablePointer<OutputEvent>
    /// How many events `storage` has room for.
    @usableFromInline var room: Int
    /// How many events are waiting.
    @usableFromInline var waiting = 0
    /// Devices that received events since their last `SYN_REPORT`, as bits of `OutputDeviceKind.rawValue`.
    @usableFromInline var dirty: UInt64 = 0

    /// How many events the storage has room for.
    public var capacity: Int { room }
    /// How many events are waiting.
    public var count: Int { waiting }

    /// An empty buffer with room for `capacity` events.
    public init(capacity: Int = 256) {
        precondition(OutputDeviceKind.count <= UInt64.bitWidth, "one dirty bit per device kind")
        room = max(capacity, 1)
        storage = .allocate(capacity: room)
    }

    deinit {
        storage.deinitialize(count: waiting)
        storage.deallocate()
    }

    /// Calls `body` with the events, in the order to write them. The pointer is valid only
    /// during the call: copy the events (`Array(events)`) to keep them.
    public func withEvents<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<OutputEvent>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeBufferPointer(start: storage, count: waiting))
    }

    /// A copy of the events, in order (allocates: for tests and tools, not the packet path).
    public var events: [OutputEvent] {
        withEvents { Array($0) }
    }

    /// Forgets the events, keeping the capacity.
    public mutating func removeAll() {
        // `OutputEvent` is trivial: nothing to deinitialize.
        waiting = 0
        dirty = 0
    }

    /// True when no event is waiting.
    public var isEmpty: Bool { waiting == 0 }

    /// Appends one event (not `SYN_REPORT`: frames end through `endFrame()`). For the engine.
    @inlinable @inline(__always)
    public mutating func append(_ device: OutputDeviceKind, type: UInt16, code: UInt16, value: Int32) {
        store(OutputEvent(device: device, type: type, code: code, value: value))
        // A masking shift: every kind's bit is below 64 (checked at init), so the smart shift's
        // check for larger counts (three instructions an event) is never needed.
        dirty |= 1 &<< UInt64(device.rawValue)
    }

    /// Makes room for `count` more events at once: the next `count` `appendReserved` calls then
    /// check nothing (a frame of several events, as the motion sensors' seven a packet).
    @inlinable @inline(__always)
    public mutating func reserve(_ count: Int) {
        while room &- waiting < count { grow() }
    }

    /// `append` into room that `reserve` made, without checking for room again.
    @inlinable @inline(__always)
    public mutating func appendReserved(_ device: OutputDeviceKind, type: UInt16, code: UInt16, value: Int32) {
        assert(waiting < room, "appendReserved beyond the room reserve made")
        (storage + waiting).initialize(to: OutputEvent(device: device, type: type, code: code, value: value))
        waiting &+= 1
        dirty |= 1 &<< UInt64(device.rawValue)
    }

    @inlinable @inline(__always)
    mutating func store(_ event: OutputEvent) {
        if waiting == room { grow() }
        (storage + waiting).initialize(to: event)
        waiting &+= 1
    }

    /// Doubles the storage, keeping the events.
    @usableFromInline @inline(never)
    mutating func grow() {
        let larger = UnsafeMutablePointer<OutputEvent>.allocate(capacity: room * 2)
        larger.moveInitialize(from: storage, count: waiting)
        storage.deallocate()
        storage = larger
        room *= 2
    }

    /// Ends the current frame: one `SYN_REPORT` for every device that changed, in device order.
    /// Inlined: a packet ends two or three frames, most of them empty. For the engine.
    @inlinable @inline(__always)
    public mutating func endFrame() {
        if dirty != 0 { appendSynReports() }
    }

    @usableFromInline @inline(never)
    mutating func appendSynReports() {
        // The dirty bits, lowest first (device order), rather than every kind's bit in turn.
        var pending = dirty
        dirty = 0
        while pending != 0 {
            let raw = pending.trailingZeroBitCount
            pending &= pending &- 1
            guard let device = OutputDeviceKind(rawValue: UInt8(truncatingIfNeeded: raw)) else { continue }
            store(OutputEvent(device: device, type: EventType.syn, code: EventCode.synReport, value: 0))
        }
    }
}
