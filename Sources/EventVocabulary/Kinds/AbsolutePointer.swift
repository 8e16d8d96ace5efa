/// The absolute pointer device's codes: `ABS_X` and `ABS_Y` from 0 (left, top) to `maximum`
/// (right, bottom), resolution 0 (a position on the screen, not a distance), and the mouse
/// buttons `BTN_LEFT`, `BTN_RIGHT` and `BTN_MIDDLE`, as QEMU's USB tablet has them: with
/// absolute axes and a mouse button and no `BTN_TOUCH` or tool, udev's input_id makes it
/// `ID_INPUT_MOUSE` and libinput an absolute pointer (`POINTER_MOTION_ABSOLUTE`).
public enum AbsolutePointer {
    /// The largest coordinate on either axis.
    public static let maximum: Int32 = 32767
    /// `ABS_X` and `ABS_Y`: 0...32767, centred at rest.
    public static let axis = AbsInfo(minimum: 0, maximum: maximum, value: maximum / 2 + 1)
    /// The buttons it always carries, so udev and libinput take it for a mouse.
    public static let buttons = [EventCode.btnLeft, EventCode.btnRight, EventCode.btnMiddle]

    /// Every code the device carries.
    public static var capabilities: DeviceCapabilities {
        DeviceCapabilities(keys: buttons, absoluteAxes: [
            AbsoluteAxis(code: EventCode.absX, info: axis), AbsoluteAxis(code: EventCode.absY, info: axis),
        ])
    }

    /// Whether a code is one of the device's own.
    public static func carries(type: UInt16, code: UInt16) -> Bool {
        capabilities.carries(type: type, code: code)
    }
}

extension DeviceKindDescription {
    /// The absolute pointer: `BUS_VIRTUAL` da7d:0005, exactly `AbsolutePointer.capabilities`
    /// and no property (a pointer, not a touchscreen). No code routes to it and no setting may
    /// name it: its axes carry the orientation alone.
    public static let pointer = DeviceKindDescription(
        name: "pointer", deviceName: "Daydream Controller Pointer", product: 0x0005,
        classificationCodes: AbsolutePointer.capabilities, ownCodes: AbsolutePointer.capabilities, takesSettings: false)
}
