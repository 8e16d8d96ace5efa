import CEvdev

/// Event type and code names from libevdev's own tables.
public enum EventNames {
    /// `BTN_SOUTH`, `REL_WHEEL`, `SYN_REPORT`; `EV_KEY:0x2ff` style when libevdev has no name.
    public static func name(type: UInt16, code: UInt16) -> String {
        if let name = libevdev_event_code_get_name(UInt32(type), UInt32(code)) {
            return String(cString: name)
        }
        let typeName = libevdev_event_type_get_name(UInt32(type)).map { String(cString: $0) } ?? "EV_\(type)"
        return "\(typeName):0x\(String(code, radix: 16))"
    }
}
