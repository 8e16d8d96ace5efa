/// Everything the bridge knows about one kind of virtual device, as data: its name in the
/// config, its identity, its input properties, the codes it always carries so udev, libinput
/// and SDL classify it right, which codes it may carry at all, and whether a setting's
/// `device = ...` may name it. Each kind's description is in its own file under `Kinds/`;
/// `OutputDeviceKind.details` lists them.
public struct DeviceKindDescription: Sendable {
    /// The config name (`"gamepad"`).
    public let name: String
    /// The device's name (`EVIOCGNAME`), e.g. "Daydream Controller Mouse".
    public let deviceName: String
    /// Its product number on the project's vendor number and `BUS_VIRTUAL`.
    public let product: UInt16
    /// Its `INPUT_PROP_*` properties.
    public let properties: [UInt16]
    /// The codes it always carries, whatever the profiles need.
    public let classificationCodes: DeviceCapabilities
    /// When set, the only codes it may carry (a device of fixed codes: the motion sensors, the
    /// pointer); nil: the codes `OutputDeviceKind.route` sends to it.
    public let ownCodes: DeviceCapabilities?
    /// Whether a setting's `device = ...` may name it.
    public let takesSettings: Bool
    /// A rule beyond fixed codes (the gamepad's second button), applied after them.
    let classify: (@Sendable (inout DeviceCapabilities) -> Void)?

    /// A kind with every part given.
    public init(
        name: String, deviceName: String, product: UInt16, properties: [UInt16] = [],
        classificationCodes: DeviceCapabilities = DeviceCapabilities(), ownCodes: DeviceCapabilities? = nil,
        takesSettings: Bool, classify: (@Sendable (inout DeviceCapabilities) -> Void)? = nil
    ) {
        self.name = name
        self.deviceName = deviceName
        self.product = product
        self.properties = properties
        self.classificationCodes = classificationCodes
        self.ownCodes = ownCodes
        self.takesSettings = takesSettings
        self.classify = classify
    }
}

extension DeviceCapabilities {
    /// Whether the set has the code.
    public func carries(type: UInt16, code: UInt16) -> Bool {
        switch type {
        case EventType.key: hasKey(code)
        case EventType.rel: hasRelative(code)
        case EventType.abs: absInfo(code) != nil
        case EventType.msc: hasMisc(code)
        default: false
        }
    }
}
