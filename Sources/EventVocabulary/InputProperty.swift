/// Input device properties (`INPUT_PROP_*` in linux/input-event-codes.h): what a device tells
/// udev and libinput about its kind beyond its codes.
public enum InputProperty {
    /// `INPUT_PROP_POINTER`: needs a pointer on screen (a touchpad).
    public static let pointer: UInt16 = 0x00
    /// `INPUT_PROP_DIRECT`: touches map to the screen (a touchscreen, a tablet).
    public static let direct: UInt16 = 0x01
    /// `INPUT_PROP_BUTTONPAD`: the pad itself is the button (a clickpad).
    public static let buttonpad: UInt16 = 0x02
    /// `INPUT_PROP_SEMI_MT`: reports the bounding rectangle of the touches only.
    public static let semiMt: UInt16 = 0x03
    /// `INPUT_PROP_TOPBUTTONPAD`: soft buttons at the top of the pad.
    public static let topbuttonpad: UInt16 = 0x04
    /// `INPUT_PROP_POINTING_STICK`: a pointing stick.
    public static let pointingStick: UInt16 = 0x05
    /// `INPUT_PROP_ACCELEROMETER`: the axes are an accelerometer's and a gyroscope's.
    public static let accelerometer: UInt16 = 0x06
    /// `INPUT_PROP_MAX`: the largest property.
    public static let max: UInt16 = 0x1f
}
