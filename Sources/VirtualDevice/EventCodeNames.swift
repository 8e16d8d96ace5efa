import CEvdev
import Mapping

/// Event type and code names from libevdev's own tables (`EV_KEY`, `BTN_SOUTH`).
public enum EventCodeNames {
    /// The name of an event type, or its number when libevdev has none.
    public static func name(type: UInt16) -> String {
        guard let cName = libevdev_event_type_get_name(UInt32(type)) else { return "EV_\(type)" }
        return String(cString: cName)
    }

    /// The name of a code of a type, or the number in hex when libevdev has none.
    /// Codes with several names get libevdev's first (`BTN_SOUTH` is `BTN_A`'s).
    public static func name(type: UInt16, code: UInt16) -> String {
        guard let cName = libevdev_event_code_get_name(UInt32(type), UInt32(code)) else {
            return "\(name(type: type)):0x\(String(code, radix: 16))"
        }
        return String(cString: cName)
    }

    /// The code of a name such as `BTN_SOUTH` or `REL_WHEEL`, with its type.
    public static func code(named name: String) -> (type: UInt16, code: UInt16)? {
        let code = libevdev_event_code_from_code_name(name)
        guard code >= 0 else { return nil }
        let type = libevdev_event_type_from_code_name(name)
        guard type >= 0 else { return nil }
        return (UInt16(type), UInt16(code))
    }
}

extension EventCodeNames {
    /// An output event as one line: `gamepad EV_KEY BTN_SOUTH 1`.
    public static func line(_ event: OutputEvent) -> String {
        "\(event.device) \(name(type: event.type)) \(name(type: event.type, code: event.code)) \(event.value)"
    }
}
