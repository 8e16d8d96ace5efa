import EventVocabulary

/// Turns the mapping's capabilities into device descriptions: one identity
/// per kind, the classification codes udev and SDL need, and the checks that
/// keep classes apart.
public enum DeviceLayout {
    /// The description of the device of `kind` carrying `capabilities`: the kind's identity,
    /// properties and classification codes (`OutputDeviceKind.details`), except that the
    /// gamepad's identity is the configured one: with `.xbox360`, exactly `XboxPad`'s codes (the
    /// profile's codes must be among them); with `.dualsense` (the uinput pad it falls back to),
    /// exactly `FixedPad.dualsense`'s. Codes that belong to another kind are refused.
    public static func description(
        for kind: OutputDeviceKind, capabilities: DeviceCapabilities, gamepadIdentity: GamepadIdentity = .default
    ) throws(VirtualDeviceError) -> DeviceDescription {
        var classified = Capabilities()
        classified[kind] = capabilities
        classified.addClassificationCodes()
        let codes = classified[kind] ?? capabilities
        let description = kind == .gamepad
            ? try gamepad(codes, identity: gamepadIdentity)
            : DeviceDescription(identity: DeviceIdentity(kind), capabilities: codes, properties: kind.details.properties)
        try checkRouting(description, kind: kind)
        try description.validate()
        return description
    }

    private static func gamepad(_ codes: DeviceCapabilities, identity: GamepadIdentity) throws(VirtualDeviceError) -> DeviceDescription {
        switch identity {
        case .default:
            return DeviceDescription(identity: .gamepad, capabilities: codes)
        case .xbox360:
            let foreign = XboxPad.foreignCodes(in: codes)
            if !foreign.isEmpty {
                throw .unsupportedCodes(
                    device: DeviceIdentity.xbox360.name, codes: foreign,
                    reason: "identity \"xbox360\" has exactly xpad's codes (BTN_A/B/X/Y, BTN_TL/TR, BTN_SELECT/START/MODE, "
                        + "BTN_THUMBL/R, ABS_X/Y/RX/RY, ABS_Z/RZ 0...255, ABS_HAT0X/Y; use the hat for the d-pad)")
            }
            return DeviceDescription(identity: .xbox360, capabilities: XboxPad.capabilities)
        case .dualsense:
            // The uinput pad a DualSense falls back to (no /dev/uhid): the bridge's own
            // identity, never Sony's, with exactly the DualSense's codes.
            let pad = FixedPad.dualsense
            let foreign = pad.foreignCodes(in: codes)
            if !foreign.isEmpty {
                throw .unsupportedCodes(
                    device: DeviceIdentity.gamepad.name, codes: foreign,
                    reason: "identity \"dualsense\" has exactly hid-playstation's codes (BTN_SOUTH/EAST/NORTH/WEST, "
                        + "BTN_TL/TR/TL2/TR2, BTN_SELECT/START/MODE, BTN_THUMBL/R, ABS_X/Y/RX/RY, ABS_Z/RZ 0...255, "
                        + "ABS_HAT0X/Y; use the hat for the d-pad)")
            }
            return DeviceDescription(identity: .gamepad, capabilities: pad.capabilities)
        }
    }

    /// Refuses codes that would make udev take the device for another class.
    private static func checkRouting(_ description: DeviceDescription, kind: OutputDeviceKind) throws(VirtualDeviceError) {
        let capabilities = description.capabilities
        let codes = capabilities.keys.map { (EventType.key, $0) } + capabilities.relativeAxes.map { (EventType.rel, $0) }
            + capabilities.absoluteAxes.map { (EventType.abs, $0.code) } + capabilities.miscCodes.map { (EventType.msc, $0) }
        let misplaced = codes.filter { !kind.accepts(type: $0.0, code: $0.1) }.map { EventCodeNames.name(type: $0.0, code: $0.1) }
        if !misplaced.isEmpty {
            throw .unsupportedCodes(device: description.identity.name, codes: misplaced,
                                    reason: "they belong on another device (a \(kind) with them would be misclassified)")
        }
    }
}
