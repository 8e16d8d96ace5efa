/// A JSON value built as data and written as text in one place (`text`): the page's API builds
/// these rather than joining strings, so every string is escaped and every bracket closed.
/// Objects keep their members in the order given. The text has the shape the page and its tests
/// read: `{"key": value, "other": [1, 2]}`.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    /// A number; one that is not finite (JSON has no infinity) is written as `null`.
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in order (a key given twice is written twice: the caller's to avoid).
    case object([(key: String, value: JSONValue)])
    /// JSON text made elsewhere and trusted as JSON (a packet's `jsonLine`), written as it is.
    case encoded(String)

    /// `value`, or `null` when there is none.
    public static func optional(_ value: JSONValue?) -> JSONValue { value ?? .null }

    /// The value as JSON text.
    public var text: String {
        var output = ""
        write(to: &output)
        return output
    }

    /// Appends the value's JSON text to `output`.
    public func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .integer(let number): output += String(number)
        case .number(let number): output += number.isFinite ? "\(number)" : "null"
        case .string(let text): output += JSONText.string(text)
        case .encoded(let text): output += text
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += ", " }
                element.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += ", " }
                output += JSONText.string(member.key)
                output += ": "
                member.value.write(to: &output)
            }
            output += "}"
        }
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)), (.encoded(let a), .encoded(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }
}

extension JSONValue: ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral, ExpressibleByStringLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
    /// An object, its members in the literal's order.
    public init(dictionaryLiteral members: (String, JSONValue)...) { self = .object(members.map { (key: $0.0, value: $0.1) }) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(stringLiteral text: String) { self = .string(text) }
    public init(integerLiteral number: Int64) { self = .integer(number) }
    public init(booleanLiteral flag: Bool) { self = .bool(flag) }
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
    /// An array of strings.
    public static func strings(_ list: [String]) -> JSONValue { .array(list.map(JSONValue.string)) }

    /// A count or a position: an integer.
    public static func integer(_ number: Int) -> JSONValue { .integer(Int64(number)) }
}
