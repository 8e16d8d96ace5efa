import EventVocabulary

/// Everything needed to create one virtual device: its identity, the
/// exact codes it can emit (each axis with its range and resting value)
/// and its input properties.
public struct DeviceDescription: Hashable, Sendable {
    /// Name and ids.
    public var identity: DeviceIdentity
    /// The `EV_KEY`, `EV_REL`, `EV_ABS` and `EV_MSC` codes, sorted and unique.
    public var capabilities: DeviceCapabilities
    /// `INPUT_PROP_*` values (`INPUT_PROP_ACCELEROMETER` on the motion sensor).
    public var properties: [UInt16]

    /// A description from an identity, codes and properties.
    public init(identity: DeviceIdentity, capabilities: DeviceCapabilities, properties: [UInt16] = []) {
        self.identity = identity
        self.capabilities = capabilities
        self.properties = properties
    }

    /// The longest name uinput takes (`UINPUT_MAX_NAME_SIZE` less the NUL).
    public static let maximumNameBytes = 79

    /// Checks what the kernel would refuse, so the error names the code.
    public func validate() throws(VirtualDeviceError) {
        let name = identity.name
        if capabilities.isEmpty { throw .invalidDescription(name, "it has no event codes") }
        if name.isEmpty || name.utf8.count > Self.maximumNameBytes {
            throw .invalidDescription(name, "its name must be 1 to \(Self.maximumNameBytes) bytes long")
        }
        if let code = capabilities.keys.first(where: { $0 > EventCode.keyMax }) {
            throw .invalidDescription(name, "key code \(code) is above KEY_MAX")
        }
        if let code = capabilities.relativeAxes.first(where: { $0 > EventCode.relMax }) {
            throw .invalidDescription(name, "relative axis code \(code) is above REL_MAX")
        }
        if let code = capabilities.miscCodes.first(where: { $0 > EventCode.mscMax }) {
            throw .invalidDescription(name, "misc code \(code) is above MSC_MAX")
        }
        if let property = properties.first(where: { $0 > InputProperty.max }) {
            throw .invalidDescription(name, "input property \(property) is above INPUT_PROP_MAX")
        }
        for axis in capabilities.absoluteAxes {
            try validate(axis)
        }
    }

    private func validate(_ axis: AbsoluteAxis) throws(VirtualDeviceError) {
        let name = identity.name
        let info = axis.info
        let axisName = EventCodeNames.name(type: EventType.abs, code: axis.code)
        if axis.code > EventCode.absMax {
            throw .invalidDescription(name, "absolute axis code \(axis.code) is above ABS_MAX")
        }
        // One multitouch slot is ABS_MT_SLOT 0...0; every other axis needs a span.
        if info.minimum > info.maximum || (info.minimum == info.maximum && axis.code != EventCode.absMtSlot) {
            throw .invalidDescription(name, "\(axisName) has minimum \(info.minimum) not below maximum \(info.maximum)")
        }
        // A slot's tracking id rests at -1, no contact, below its range by the kernel's convention.
        let restsAsNoContact = axis.code == EventCode.absMtTrackingId && info.value == -1
        if !restsAsNoContact && (info.value < info.minimum || info.value > info.maximum) {
            throw .invalidDescription(name, "\(axisName) rests at \(info.value), outside \(info.minimum)...\(info.maximum)")
        }
        let span = Int64(info.maximum) - Int64(info.minimum)
        if info.flat < 0 || Int64(info.flat) > span || info.fuzz < 0 || Int64(info.fuzz) > span {
            throw .invalidDescription(name, "\(axisName) has a flat or fuzz outside its range")
        }
    }
}
