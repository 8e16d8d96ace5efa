/// One value of a TOML document, with where it is written.
public struct TOMLValue: Sendable, Equatable {
    /// What the value holds.
    public enum Content: Sendable, Equatable {
        case table(TOMLTable)
        case array([TOMLValue])
        case string(String)
        case integer(Int64)
        case float(Double)
        case boolean(Bool)
        /// A local date, as TOML writes it (`1979-05-27`).
        case date(String)
        /// A local time, as TOML writes it (`07:32:00`).
        case time(String)
        /// A date and time, as TOML writes it.
        case dateTime(String)
    }

    /// What the value holds.
    public var content: Content
    /// Where the value starts in the text.
    public var position: SourcePosition
    /// Just past the value's last character (unknown for tables made of `[headers]`); what an
    /// edit in place replaces runs from `position` to here.
    public var end: SourcePosition

    /// A value holding `content`, written from `position` to just before `end`.
    public init(_ content: Content, at position: SourcePosition, end: SourcePosition = .unknown) {
        self.content = content
        self.position = position
        self.end = end
    }

    /// The table, when the value is one.
    public var table: TOMLTable? {
        if case .table(let table) = content { return table }
        return nil
    }

    /// The elements, when the value is an array.
    public var array: [TOMLValue]? {
        if case .array(let elements) = content { return elements }
        return nil
    }

    /// The string, when the value is one.
    public var string: String? {
        if case .string(let string) = content { return string }
        return nil
    }

    /// The integer, when the value is one.
    public var integer: Int64? {
        if case .integer(let integer) = content { return integer }
        return nil
    }

    /// The number, when the value is an integer or a float.
    public var number: Double? {
        switch content {
        case .integer(let integer): Double(integer)
        case .float(let float): float
        default: nil
        }
    }

    /// The boolean, when the value is one.
    public var boolean: Bool? {
        if case .boolean(let boolean) = content { return boolean }
        return nil
    }

    /// What kind of value this is, with its article, for messages: "a string", "an array".
    public var kindDescription: String {
        switch content {
        case .table: "a table"
        case .array: "an array"
        case .string: "a string"
        case .integer: "an integer"
        case .float: "a float"
        case .boolean: "a boolean"
        case .date: "a date"
        case .time: "a time"
        case .dateTime: "a date-time"
        }
    }
}

/// A key of a TOML table, its value, and where the key is written; only the parser makes one.
public struct TOMLEntry: Sendable, Equatable {
    /// The key, unquoted.
    public var key: String
    /// Where the key is written (for a `[table]`, where it is first named).
    public var keyPosition: SourcePosition
    /// The value.
    public var value: TOMLValue
}

/// A TOML table: its entries in the order the text gives them.
public struct TOMLTable: Sendable, Equatable {
    /// The entries, in source order.
    public var entries: [TOMLEntry]

    /// A table holding `entries`.
    public init(entries: [TOMLEntry] = []) {
        self.entries = entries
    }

    /// The entry for `key`, if the table has it.
    public subscript(key: String) -> TOMLEntry? {
        entries.first { $0.key == key }
    }

    /// The keys, in source order.
    public var keys: [String] { entries.map(\.key) }
}
