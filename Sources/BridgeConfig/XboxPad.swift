import CEvdev
import VirtualDevice

/// The codes an Xbox 360 pad has under Linux's xpad driver: what games that
/// only know that pad expect when `[gamepad] identity = "xbox360"`.
enum XboxPad {
    /// A, B, X, Y, the shoulders, back, start, guide, the stick clicks, and the
    /// d-pad as the four trigger-happy buttons xpad can report it with.
    static let buttons: [UInt16] = [
        BTN_SOUTH, BTN_EAST, BTN_NORTH, BTN_WEST, BTN_TL, BTN_TR, BTN_SELECT, BTN_START, BTN_MODE,
        BTN_THUMBL, BTN_THUMBR, BTN_TRIGGER_HAPPY1, BTN_TRIGGER_HAPPY2, BTN_TRIGGER_HAPPY3, BTN_TRIGGER_HAPPY4,
    ].map { UInt16($0) }

    /// The sticks, the triggers and the d-pad hat.
    static let axes: [UInt16] = [
        ABS_X, ABS_Y, ABS_Z, ABS_RX, ABS_RY, ABS_RZ, ABS_HAT0X, ABS_HAT0Y,
    ].map { UInt16($0) }

    /// `buttons` by libevdev's names.
    static var buttonNames: [String] {
        buttons.compactMap { EventCodeNames.knownName(type: EventCodeNames.key, code: $0) }
    }

    /// `axes` by libevdev's names.
    static var axisNames: [String] {
        axes.compactMap { EventCodeNames.knownName(type: EventCodeNames.absolute, code: $0) }
    }
}
