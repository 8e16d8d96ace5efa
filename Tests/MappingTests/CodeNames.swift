import Mapping

/// Readable names for the codes the timelines use (tests only; the bridge resolves names through libevdev).
enum CodeNames {
    static let keys: [(String, UInt16)] = [
        ("KEY_ESC", 1), ("KEY_TAB", 15), ("KEY_ENTER", 28), ("KEY_LEFTCTRL", 29), ("KEY_LEFTSHIFT", 42),
        ("KEY_C", 46), ("KEY_B", 48), ("KEY_LEFTALT", 56), ("KEY_SPACE", 57),
        ("KEY_UP", 103), ("KEY_PAGEUP", 104), ("KEY_LEFT", 105), ("KEY_RIGHT", 106), ("KEY_DOWN", 108),
        ("KEY_PAGEDOWN", 109), ("KEY_VOLUMEDOWN", 114), ("KEY_VOLUMEUP", 115),
        ("KEY_NEXTSONG", 163), ("KEY_PLAYPAUSE", 164), ("KEY_PREVIOUSSONG", 165),
        ("BTN_LEFT", 0x110), ("BTN_RIGHT", 0x111), ("BTN_MIDDLE", 0x112), ("BTN_SIDE", 0x113), ("BTN_EXTRA", 0x114),
        ("BTN_TRIGGER", 0x120), ("BTN_TOUCH", 0x14a),
        ("BTN_SOUTH", 0x130), ("BTN_EAST", 0x131), ("BTN_NORTH", 0x133), ("BTN_WEST", 0x134),
        ("BTN_TL", 0x136), ("BTN_TR", 0x137), ("BTN_SELECT", 0x13a), ("BTN_START", 0x13b), ("BTN_MODE", 0x13c),
        ("BTN_THUMBL", 0x13d), ("BTN_THUMBR", 0x13e),
        ("BTN_DPAD_UP", 0x220), ("BTN_DPAD_DOWN", 0x221), ("BTN_DPAD_LEFT", 0x222), ("BTN_DPAD_RIGHT", 0x223),
    ]
    static let relative: [(String, UInt16)] = [
        ("REL_X", 0x00), ("REL_Y", 0x01), ("REL_HWHEEL", 0x06), ("REL_WHEEL", 0x08),
        ("REL_WHEEL_HI_RES", 0x0b), ("REL_HWHEEL_HI_RES", 0x0c),
    ]
    static let absolute: [(String, UInt16)] = [
        ("ABS_X", 0x00), ("ABS_Y", 0x01), ("ABS_Z", 0x02), ("ABS_RX", 0x03), ("ABS_RY", 0x04), ("ABS_RZ", 0x05),
        ("ABS_HAT0X", 0x10), ("ABS_HAT0Y", 0x11),
    ]

    /// The number of a `KEY_*`/`BTN_*` name.
    static func key(_ name: String) -> UInt16? { keys.first(where: { $0.0 == name })?.1 }

    /// The number of an `ABS_*` name.
    static func absolute(_ name: String) -> UInt16? { absolute.first(where: { $0.0 == name })?.1 }

    /// The name of an event's code, or its number when the table lacks it.
    static func name(type: UInt16, code: UInt16) -> String {
        let table: [(String, UInt16)]
        switch type {
        case EventType.syn: return code == EventCode.synReport ? "SYN_REPORT" : "SYN_\(code)"
        case EventType.key: table = keys
        case EventType.rel: table = relative
        case EventType.abs: table = absolute
        default: return "TYPE\(type)_\(code)"
        }
        return table.first(where: { $0.1 == code })?.0 ?? "\(type):\(code)"
    }
}
