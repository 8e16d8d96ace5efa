/// Linux input event types (`EV_*` in `linux/input-event-codes.h`).
///
/// The engine only sees numbers; the config resolves names through libevdev.
public enum EventType {
    /// `EV_SYN`: frame markers.
    public static let syn: UInt16 = 0x00
    /// `EV_KEY`: keys and buttons.
    public static let key: UInt16 = 0x01
    /// `EV_REL`: relative axes.
    public static let rel: UInt16 = 0x02
    /// `EV_ABS`: absolute axes.
    public static let abs: UInt16 = 0x03
}

/// The Linux event codes the engine itself emits or routes by; the kernel name is in each comment.
public enum EventCode {
    /// `SYN_REPORT`: ends a frame.
    public static let synReport: UInt16 = 0x00

    /// `REL_X`.
    public static let relX: UInt16 = 0x00
    /// `REL_Y`.
    public static let relY: UInt16 = 0x01
    /// `REL_HWHEEL`: horizontal wheel detents, positive to the right.
    public static let relHWheel: UInt16 = 0x06
    /// `REL_WHEEL`: vertical wheel detents, positive away from the user (scroll up).
    public static let relWheel: UInt16 = 0x08
    /// `REL_WHEEL_HI_RES`: 120 per detent.
    public static let relWheelHiRes: UInt16 = 0x0b
    /// `REL_HWHEEL_HI_RES`: 120 per detent.
    public static let relHWheelHiRes: UInt16 = 0x0c
    /// `REL_MAX`.
    public static let relMax: UInt16 = 0x0f

    /// `ABS_X`.
    public static let absX: UInt16 = 0x00
    /// `ABS_Y`.
    public static let absY: UInt16 = 0x01
    /// `ABS_Z`.
    public static let absZ: UInt16 = 0x02
    /// `ABS_RX`.
    public static let absRX: UInt16 = 0x03
    /// `ABS_RY`.
    public static let absRY: UInt16 = 0x04
    /// `ABS_RZ`.
    public static let absRZ: UInt16 = 0x05
    /// `ABS_HAT0X`: -1 left, 1 right.
    public static let absHat0X: UInt16 = 0x10
    /// `ABS_HAT0Y`: -1 up, 1 down.
    public static let absHat0Y: UInt16 = 0x11
    /// `ABS_MAX`.
    public static let absMax: UInt16 = 0x3f

    /// `BTN_MISC` (= `BTN_0`): first of the misc buttons.
    public static let btnMisc: UInt16 = 0x100
    /// `BTN_LEFT` (= `BTN_MOUSE`): first mouse button.
    public static let btnLeft: UInt16 = 0x110
    /// `BTN_RIGHT`.
    public static let btnRight: UInt16 = 0x111
    /// `BTN_MIDDLE`.
    public static let btnMiddle: UInt16 = 0x112
    /// `BTN_SIDE`.
    public static let btnSide: UInt16 = 0x113
    /// `BTN_EXTRA`.
    public static let btnExtra: UInt16 = 0x114
    /// `BTN_TASK`: last mouse button.
    public static let btnTask: UInt16 = 0x117
    /// `BTN_JOYSTICK` (= `BTN_TRIGGER`): first joystick button.
    public static let btnJoystick: UInt16 = 0x120
    /// `BTN_SOUTH` (= `BTN_A` = `BTN_GAMEPAD`): the mark of a gamepad.
    public static let btnSouth: UInt16 = 0x130
    /// `BTN_EAST` (= `BTN_B`).
    public static let btnEast: UInt16 = 0x131
    /// `BTN_NORTH` (= `BTN_X`).
    public static let btnNorth: UInt16 = 0x133
    /// `BTN_WEST` (= `BTN_Y`).
    public static let btnWest: UInt16 = 0x134
    /// `BTN_TL`.
    public static let btnTL: UInt16 = 0x136
    /// `BTN_TR`.
    public static let btnTR: UInt16 = 0x137
    /// `BTN_SELECT`.
    public static let btnSelect: UInt16 = 0x13a
    /// `BTN_START`.
    public static let btnStart: UInt16 = 0x13b
    /// `BTN_MODE`: home / guide.
    public static let btnMode: UInt16 = 0x13c
    /// `BTN_THUMBR`: last gamepad button.
    public static let btnThumbR: UInt16 = 0x13e
    /// `BTN_DIGI` (= `BTN_TOOL_PEN`): first tablet/touch code, never emitted by the bridge.
    public static let btnDigi: UInt16 = 0x140
    /// `BTN_WHEEL`: first code after the tablet/touch range.
    public static let btnWheel: UInt16 = 0x150
    /// `BTN_DPAD_UP`.
    public static let btnDpadUp: UInt16 = 0x220
    /// `BTN_DPAD_DOWN`.
    public static let btnDpadDown: UInt16 = 0x221
    /// `BTN_DPAD_LEFT`.
    public static let btnDpadLeft: UInt16 = 0x222
    /// `BTN_DPAD_RIGHT`.
    public static let btnDpadRight: UInt16 = 0x223
    /// `BTN_TRIGGER_HAPPY1`.
    public static let btnTriggerHappy1: UInt16 = 0x2c0
    /// `BTN_TRIGGER_HAPPY40`.
    public static let btnTriggerHappy40: UInt16 = 0x2e7
    /// `KEY_MAX`.
    public static let keyMax: UInt16 = 0x2ff
}
