/// A kernel input event code resolved by name; only `EventCodeNames.resolve` makes one.
public struct NamedEventCode: Hashable, Sendable, CustomStringConvertible {
    /// The event type, e.g. `EV_KEY`.
    public var type: UInt16
    /// The code within the type, e.g. `BTN_SOUTH`.
    public var code: UInt16
    /// The name as it was looked up (an alias such as `BTN_A` stays as written).
    public var name: String

    public var description: String { name }
}

/// Event type and code names (`EV_KEY`, `BTN_SOUTH`) from the table generated from
/// linux/input-event-codes.h (`EventCodeTable`), so every code the kernel header knows
/// is accepted and printed without a hand-written list: the config resolves names with
/// it, the devices and the event printers name codes with it. A code with several names
/// prints as libevdev prints it (`BTN_SOUTH`, not `BTN_A` or `BTN_GAMEPAD`).
public enum EventCodeNames {
    /// Keys and buttons (`KEY_*`, `BTN_*`).
    public static let key = EventType.key
    /// Relative axes (`REL_*`).
    public static let relative = EventType.rel
    /// Absolute axes (`ABS_*`).
    public static let absolute = EventType.abs

    /// The code `name` denotes among `types`, or nil.
    public static func resolve(_ name: String, types: [UInt16]) -> NamedEventCode? {
        for type in types {
            if let code = vocabulary(type)?.codesByName[name] {
                return NamedEventCode(type: type, code: code, name: name)
            }
        }
        return nil
    }

    /// The name `code` of `type` prints as, or nil when the header has none.
    public static func knownName(type: UInt16, code: UInt16) -> String? {
        guard let names = vocabulary(type)?.namesByCode, Int(code) < names.count else { return nil }
        return names[Int(code)]
    }

    /// The name of a code of a type for printing: the header's, or the type's
    /// name and the code in hex when it has none (`EV_KEY:0x2fe`).
    public static func name(type: UInt16, code: UInt16) -> String {
        knownName(type: type, code: code) ?? "\(name(type: type)):0x\(String(code, radix: 16))"
    }

    /// The name of an event type, or `EV_` and its number when the header has none.
    public static func name(type: UInt16) -> String {
        EventCodeTable.types.first { $0.code == type }?.name ?? "EV_\(type)"
    }

    /// An output event as one line: `gamepad EV_KEY BTN_SOUTH 1`.
    public static func line(_ event: OutputEvent) -> String {
        "\(event.device) \(name(type: event.type)) \(name(type: event.type, code: event.code)) \(event.value)"
    }

    /// Every code's printing name for `type`, by code, without the `*_MAX` and
    /// `*_RESERVED` markers.
    public static func allNames(type: UInt16) -> [String] {
        vocabulary(type)?.printingNames ?? []
    }

    private static func vocabulary(_ type: UInt16) -> TypeVocabulary? {
        switch type {
        case EventType.key: keys
        case EventType.rel: relativeAxes
        case EventType.abs: absoluteAxes
        case EventType.syn: synchronization
        case EventType.msc: miscellaneous
        default: nil
        }
    }

    private static let keys = TypeVocabulary(EventCodeTable.key)
    private static let relativeAxes = TypeVocabulary(EventCodeTable.relative)
    private static let absoluteAxes = TypeVocabulary(EventCodeTable.absolute)
    private static let synchronization = TypeVocabulary(EventCodeTable.synchronization)
    private static let miscellaneous = TypeVocabulary(EventCodeTable.misc)
}

/// One type's names, indexed both ways.
private struct TypeVocabulary: Sendable {
    /// Every name, aliases and markers included.
    let codesByName: [String: UInt16]
    /// The printing name of each code up to the largest, nil where the header has none.
    let namesByCode: [String?]
    /// `namesByCode` without the gaps and the `*_MAX` and `*_RESERVED` markers.
    let printingNames: [String]

    init(_ table: [(name: String, code: UInt16)]) {
        var codesByName: [String: UInt16] = [:]
        var namesByCode = [String?](repeating: nil, count: Int(table.map(\.code).max() ?? 0) + 1)
        for entry in table {
            codesByName[entry.name] = entry.code
            // The table lists a code's printing name first.
            if namesByCode[Int(entry.code)] == nil { namesByCode[Int(entry.code)] = entry.name }
        }
        self.codesByName = codesByName
        self.namesByCode = namesByCode
        printingNames = namesByCode.compactMap { name in
            guard let name, !name.hasSuffix("_MAX"), !name.hasSuffix("_RESERVED") else { return nil }
            return name
        }
    }
}
