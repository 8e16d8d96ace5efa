import CEvdev
import EventVocabulary
import Mapping

/// Kernel codes as `UInt16`, read from linux/input-event-codes.h through CEvdev.
enum Code {
    static let evSyn = UInt16(EV_SYN), evKey = UInt16(EV_KEY), evRel = UInt16(EV_REL), evAbs = UInt16(EV_ABS)
    static let synReport = UInt16(SYN_REPORT)
    static let btnSouth = UInt16(BTN_SOUTH), btnEast = UInt16(BTN_EAST), btnMode = UInt16(BTN_MODE)
    static let btnStart = UInt16(BTN_START), btnDpadUp = UInt16(BTN_DPAD_UP)
    static let btnLeft = UInt16(BTN_LEFT), btnRight = UInt16(BTN_RIGHT)
    static let relX = UInt16(REL_X), relY = UInt16(REL_Y)
    static let relWheel = UInt16(REL_WHEEL), relWheelHiRes = UInt16(REL_WHEEL_HI_RES)
    static let absX = UInt16(ABS_X), absY = UInt16(ABS_Y), absZ = UInt16(ABS_Z)
    static let absHat0x = UInt16(ABS_HAT0X), absHat0y = UInt16(ABS_HAT0Y)
    static let keyVolumeUp = UInt16(KEY_VOLUMEUP), keyVolumeDown = UInt16(KEY_VOLUMEDOWN)
    static let keyLeftCtrl = UInt16(KEY_LEFTCTRL), keyC = UInt16(KEY_C)
}

/// The capabilities a typical configuration produces: a pad with a stick and
/// four buttons, a scrolling mouse with two buttons, a keyboard with media keys.
enum Fixture {
    static var gamepad: DeviceCapabilities {
        DeviceCapabilities(keys: [Code.btnSouth, Code.btnEast, Code.btnMode, Code.btnStart],
                           absoluteAxes: [AbsoluteAxis(code: Code.absX, info: .stick),
                                          AbsoluteAxis(code: Code.absY, info: .stick)])
    }

    static var mouse: DeviceCapabilities {
        DeviceCapabilities(keys: [Code.btnLeft, Code.btnRight],
                           relativeAxes: [Code.relX, Code.relY, Code.relWheel, Code.relWheelHiRes])
    }

    static var keyboard: DeviceCapabilities {
        DeviceCapabilities(keys: [Code.keyVolumeUp, Code.keyVolumeDown, Code.keyLeftCtrl, Code.keyC])
    }

    static var all: Capabilities {
        Capabilities([.gamepad: gamepad, .mouse: mouse, .keyboard: keyboard])
    }

    static func event(_ device: OutputDeviceKind, _ type: UInt16, _ code: UInt16, _ value: Int32) -> OutputEvent {
        OutputEvent(device: device, type: type, code: code, value: value)
    }

    static func syn(_ device: OutputDeviceKind) -> OutputEvent {
        OutputEvent(device: device, type: Code.evSyn, code: Code.synReport, value: 0)
    }
}
