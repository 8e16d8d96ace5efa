import CEvdev

/// A kernel input event code resolved by name through libevdev's tables.
public struct NamedEventCode: Hashable, Sendable, CustomStringConvertible {
    /// The event type, e.g. `EV_KEY`.
    public var type: UInt16
    /// The code within the type, e.g. `BTN_SOUTH`.
    public var code: UInt16
    /// The name as libevdev spells it.
    public var name: String

    /// An event code; `name` is what the config wrote.
    public init(type: UInt16, code: UInt16, name: String) {
        self.type = type
        self.code = code
        self.name = name
    }

    public var description: String { name }
}

/// Event code names from libevdev (`libevdev_event_code_from_name`,
/// `libevdev_event_code_get_name`), so every code the kernel headers know is
/// accepted without a hand-written list.
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

    /// The name libevdev gives `code` of `type` (`libevdev_event_code_get_name`).
    public static func name(type: UInt16, code: UInt16) -> String? {
        libevdev_event_code_get_name(UInt32(type), UInt32(code)).map { String(cString: $0) }
    }

    /// Every name libevdev knows for `type`, by code (enumerated once per type).
    public static func allNames(type: UInt16) -> [String] {
        switch Int32(type) {
        case EV_KEY: keyNames
        case EV_REL: relativeNames
        case EV_ABS: absoluteNames
        default: enumerateNames(type: type)
        }
    }

    /// The valid name nearest to `name` among `types`, for "did you mean ...?".
    ///
    /// A name missing its prefix (`SOUTH`, `A`) is matched to the prefixed
    /// one (`BTN_SOUTH`, `KEY_A`) first.
    public static func suggestion(for name: String, types: [UInt16]) -> String? {
        let upper = name.uppercased()
        for type in types {
            for prefix in prefixes(of: type) {
                let prefixed = upper.hasPrefix(prefix) ? upper : prefix + upper
                if resolve(prefixed, types: [type]) != nil { return prefixed }
            }
        }
        return NearestName.nearest(to: name, among: types.lazy.flatMap { allNames(type: $0) })
    }

    private static func prefixes(of type: UInt16) -> [String] {
        switch Int32(type) {
        case EV_KEY: ["KEY_", "BTN_"]
        case EV_REL: ["REL_"]
        case EV_ABS: ["ABS_"]
        default: []
        }
    }

    private static let keyNames = enumerateNames(type: UInt16(EV_KEY))
    private static let relativeNames = enumerateNames(type: UInt16(EV_REL))
    private static let absoluteNames = enumerateNames(type: UInt16(EV_ABS))

    private static func enumerateNames(type: UInt16) -> [String] {
        let maximum = libevdev_event_type_get_max(UInt32(type))
        guard maximum >= 0 else { return [] }
        return (0...maximum).compactMap { code in
            guard let name = libevdev_event_code_get_name(UInt32(type), UInt32(code)) else { return nil }
            let text = String(cString: name)
            // The *_MAX and *_RESERVED markers are not events anyone means.
            return text.hasSuffix("_MAX") || text.hasSuffix("_RESERVED") ? nil : text
        }
    }
}
