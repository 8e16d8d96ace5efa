import EventVocabulary

/// What a virtual device tells the kernel about itself: its name and its
/// `input_id` (bus, vendor, product, version).
///
/// SDL builds a gamepad's GUID from these four numbers and the name, so they
/// must never change between releases: users' mappings depend on them.
public struct DeviceIdentity: Hashable, Sendable {
    /// The device name (`EVIOCGNAME`), e.g. "Daydream Controller Gamepad".
    public var name: String
    /// The bus type, a `BUS_*` value (`BusType`).
    public var bus: UInt16
    /// The vendor number.
    public var vendor: UInt16
    /// The product number.
    public var product: UInt16
    /// The version number.
    public var version: UInt16
}

extension DeviceIdentity {
    /// The project's own vendor number on `BUS_VIRTUAL` (a bus with no
    /// registry, so it cannot collide with a real device's USB or Bluetooth id).
    public static let projectVendor: UInt16 = 0xDA7D
    /// The version every project device reports; bumped only if a device's
    /// code layout changes in a way that needs new SDL mappings.
    public static let projectVersion: UInt16 = 0x0001

    /// The bridge's own device of `kind`: its description's name and product number on the
    /// project's vendor number, `BUS_VIRTUAL`.
    public init(_ kind: OutputDeviceKind) {
        let details = kind.details
        self.init(name: details.deviceName, bus: BusType.virtual, vendor: Self.projectVendor, product: details.product,
                  version: Self.projectVersion)
    }

    /// The bridge's own gamepad: `BUS_VIRTUAL` da7d:0001.
    public static let gamepad = DeviceIdentity(.gamepad)
    /// The bridge's mouse: `BUS_VIRTUAL` da7d:0002.
    public static let mouse = DeviceIdentity(.mouse)
    /// The bridge's keyboard: `BUS_VIRTUAL` da7d:0003.
    public static let keyboard = DeviceIdentity(.keyboard)
    /// The bridge's motion sensors: `BUS_VIRTUAL` da7d:0004.
    public static let motion = DeviceIdentity(.motion)
    /// The bridge's absolute pointer: `BUS_VIRTUAL` da7d:0005.
    public static let pointer = DeviceIdentity(.pointer)

    /// A wired Xbox 360 pad as the kernel's xpad driver presents it:
    /// `BUS_USB` 045e:028e, version 0x0114, "Microsoft X-Box 360 pad".
    public static let xbox360 = DeviceIdentity(
        name: "Microsoft X-Box 360 pad", bus: BusType.usb,
        vendor: 0x045E, product: 0x028E, version: 0x0114)
}

extension GamepadIdentity {
    /// The identity the gamepad device gets.
    public var deviceIdentity: DeviceIdentity {
        switch self {
        case .default: .gamepad
        case .xbox360: .xbox360
        // The DualSense itself is a uhid device; this is the uinput pad it falls back to.
        case .dualsense: .gamepad
        }
    }
}
