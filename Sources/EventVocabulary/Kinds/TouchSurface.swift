/// The touchpad device: the controller's pad as a real touchpad, so libinput applies the
/// desktop's own pointer speed, acceleration, tap-to-click and edge scrolling to it.
///
/// One touch point (a single multitouch slot, as the pad reports one finger), `ABS_X/Y` and
/// `ABS_MT_POSITION_X/Y` from 0 to `maximum` over the pad's width and height, with
/// `resolution` units per millimetre so libinput knows its size: the pad is about 32 mm
/// across (the controller is 35 mm wide, the pad nearly all of it), so 0...255 at 8 units a
/// millimetre. `BTN_TOUCH` and `BTN_TOOL_FINGER` say a finger is down; `BTN_LEFT` with
/// `INPUT_PROP_BUTTONPAD` makes it a clickpad (udev's input_id then calls it
/// `ID_INPUT_TOUCHPAD`), `INPUT_PROP_POINTER` an indirect device (not a touchscreen).
public enum TouchSurface {
    /// The largest coordinate on either axis: the pad's own 8 bits.
    public static let maximum: Int32 = 255
    /// Units per millimetre.
    public static let resolution: Int32 = 8
    /// `ABS_X/Y` and the slot's position axes.
    public static let axis = AbsInfo(minimum: 0, maximum: maximum, resolution: resolution, value: maximum / 2)
    /// `ABS_MT_TRACKING_ID`: a new number per touch; -1 (its rest) is no contact.
    public static let trackingID = AbsInfo(minimum: 0, maximum: 65535, value: noContact)
    /// The tracking id of an empty slot.
    public static let noContact: Int32 = -1
    /// `ABS_MT_SLOT`: one slot, number 0.
    public static let slot = AbsInfo(minimum: 0, maximum: 0)

    /// Every code the device carries.
    public static var capabilities: DeviceCapabilities {
        DeviceCapabilities(
            keys: [EventCode.btnLeft, EventCode.btnToolFinger, EventCode.btnTouch],
            absoluteAxes: [
                AbsoluteAxis(code: EventCode.absX, info: axis), AbsoluteAxis(code: EventCode.absY, info: axis),
                AbsoluteAxis(code: EventCode.absMtSlot, info: slot),
                AbsoluteAxis(code: EventCode.absMtPositionX, info: axis), AbsoluteAxis(code: EventCode.absMtPositionY, info: axis),
                AbsoluteAxis(code: EventCode.absMtTrackingId, info: trackingID),
            ])
    }
}

extension DeviceKindDescription {
    /// The touchpad: `BUS_VIRTUAL` da7d:0006, exactly `TouchSurface.capabilities`, made when a
    /// profile has `touchpad = { mode = "touchpad" }`. No setting may name it.
    public static let touchpad = DeviceKindDescription(
        name: "touchpad", deviceName: "Daydream Controller Touchpad", product: 0x0006,
        properties: [InputProperty.pointer, InputProperty.buttonpad],
        classificationCodes: TouchSurface.capabilities, ownCodes: TouchSurface.capabilities, takesSettings: false)
}
