import CEvdev
import Mapping

/// A kernel input event code resolved by name through libevdev's tables.
public struct NamedEventCode: Hashable, Sendable, CustomStringConvertible {
    /// The event type, e.g. `EV_KEY`.
    public var type: UInt16
    /// The code within the type, e.g. `BTN_SOUTH`.
    public var code: UInt16
    /// The name as it was looked up (an alias such as `BTN_A` stays as written).
    public var name: String

    /// An event code; `name` is the name it was found by.
    public init(type: UInt16, code: UInt16, name: String) {
        self.type = type
        self.code = code
        self.name = name
    }

    public var description: String { name }
}

/// Event type and code names from libevdev's own tables (`EV_KEY`, `BTN_SOUTH`),
/// so every code the kernel headers know is accepted and printed without a
/// hand-written list: the config resolves names with it, the devices and the
/// event printers name codes with it.
public enum EventCodeNames {
    /// Keys and buttons (`KEY_*`, `BTN_*`).
    public static let key = UInt16(EV_KEY)
    /// Relative axes (`REL_*`).
    public static let relative = UInt16(EV_REL)
    /// Absolute axes (`ABS_*`).
    public static let absolute = UInt16(EV_ABS)

    /// The code `name` denotes among `types`, or nil (`libevdev_event_code_from_name`).
    public static func resolve(_ name: String, types: [UInt16]) -> NamedEventCode? {
        for type in types {
            let code = libevdev_event_code_from_name(UInt32(type), name)
            if code >= 0 {
                return NamedEventCode(type: type, code: UInt16(code), name: name)
            }
        }
        return nil
    }

    /// The name libevdev gives `code` of `type`, or nil when it has none
    /// (`libevdev_event_code_get_name`). Codes with several names get
    /// libevdev's first (`BTN_SOUTH` is `BTN_A`'s).
    public static func knownName(type: UInt16, code: UInt16) -> String? {
        libevdev_event_code_get_name(UInt32(type), UInt32(code)).map { String(cString: $0) }
    }

    /// The name of a code of a type for printing: libevdev's, or the type's
    /// name and the code in hex when libevdev has none (`EV_KEY:0x2ff`).
    public static func name(type: UInt16, code: UInt16) -> String {
        knownName(type: type, code: code) ?? "\(name(type: type)):0x\(String(code, radix: 16))"
    }

    /// The name of an event type, or `EV_` and its number when libevdev has none.
    public static func name(type: UInt16) -> String {
        guard let cName = libevdev_event_type_get_name(UInt32(type)) else { return "EV_\(type)" }
        return String(cString: cName)
    }

    /// An output event as one line: `gamepad EV_KEY BTN_SOUTH 1`.
    public static func line(_ event: OutputEvent) -> String {
        "\(event.device) \(name(type: event.type)) \(name(type: event.type, code: event.code)) \(event.value)"
    }

    /// Every name libevdev knows for `type`, by code, without the `*_MAX` and
    /// `*_RESERVED` markers (enumerated once per type).
    public static func allNames(type: UInt16) -> [String] {
        switch Int32(type) {
        case EV_KEY: keyNames
        case EV_REL: relativeNames
        case EV_ABS: absoluteNames
        default: enumerateNames(type: type)
        }
    }

    private static let keyNames = enumerateNames(type: UInt16(EV_KEY))
    private static let relativeNames = enumerateNames(type: UInt16(EV_REL))
    private static let absoluteNames = enumerateNames(type: UInt16(EV_ABS))

    private static func enumerateNames(type: UInt16) -> [String] {
        let maximum = libevdev_event_type_get_max(UInt32(type))
        guard maximum >= 0 else { return [] }
        return (0...maximum).compactMap { code in
            guard let text = knownName(type: type, code: UInt16(code)) else { return nil }
            // The *_MAX and *_RESERVED markers are not events anyone means.
            return text.hasSuffix("_MAX") || text.hasSuffix("_RESERVED") ? nil : text
        }
    }
}
