/// A D-Bus value of any type, for the messages BlueZ sends and receives
/// (`a{oa{sa{sv}}}`, `a{sv}`, variants, byte arrays, object paths, fds).
public indirect enum DBusValue {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    /// `o`, checked before sending.
    case objectPath(String)
    /// `g`, checked before sending.
    case signature(String)
    /// `h`: a received descriptor is owned by the value until taken.
    case unixFD(UnixFileDescriptor)
    /// `ay`, read and written as one block.
    case bytes([UInt8])
    /// `aX` for an element signature `X`.
    case array(element: String, [DBusValue])
    /// `a{KV}`, entries in order.
    case dictionary(key: String, value: String, [(DBusValue, DBusValue)])
    case structure([DBusValue])
    case variant(DBusValue)

    /// The value's type signature.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .bytes: "ay"
        case .array(let element, _): "a" + element
        case .dictionary(let key, let value, _): "a{" + key + value + "}"
        case .structure(let members): "(" + members.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }

    /// An `a{sv}` dictionary, as BlueZ uses for properties and options.
    public static func properties(_ entries: [String: DBusValue]) -> DBusValue {
        .dictionary(key: "s", value: "v", entries.sorted { $0.key < $1.key }.map { (.string($0.key), .variant($0.value)) })
    }

    /// An `as` array.
    public static func strings(_ values: [String]) -> DBusValue {
        .array(element: "s", values.map { .string($0) })
    }

    // MARK: Reading

    /// The value inside a variant (nested variants unwrapped), or the value itself.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    /// A string, object path or signature.
    public var string: String? {
        switch unwrapped {
        case .string(let value), .objectPath(let value), .signature(let value): value
        default: nil
        }
    }

    /// A boolean.
    public var boolean: Bool? {
        if case .boolean(let value) = unwrapped { return value }
        return nil
    }

    /// Any integer type as `Int`.
    public var integer: Int? {
        switch unwrapped {
        case .byte(let value): Int(value)
        case .int16(let value): Int(value)
        case .uint16(let value): Int(value)
        case .int32(let value): Int(value)
        case .uint32(let value): Int(value)
        case .int64(let value): Int(value)
        case .uint64(let value): Int(truncatingIfNeeded: value)
        default: nil
        }
    }

    /// An `ay` (or an array of bytes built by hand).
    public var bytes: [UInt8]? {
        switch unwrapped {
        case .bytes(let value): return value
        case .array("y", let values): return values.compactMap { if case .byte(let b) = $0 { b } else { nil } }
        default: return nil
        }
    }

    /// The elements of an array (of any element type).
    public var elements: [DBusValue]? {
        switch unwrapped {
        case .array(_, let values): values
        case .bytes(let values): values.map { .byte($0) }
        default: nil
        }
    }

    /// An `as` (or `ao`) as strings.
    public var strings: [String]? { elements?.compactMap(\.string) }

    /// A dictionary keyed by strings or object paths (`a{sv}`, `a{sa{sv}}`, `a{oa{...}}`).
    public var stringKeyed: [String: DBusValue]? {
        guard case .dictionary(_, _, let entries) = unwrapped else { return nil }
        var result: [String: DBusValue] = [:]
        for (key, value) in entries {
            if let name = key.string { result[name] = value }
        }
        return result
    }

    /// An `a{sv}` with the variants unwrapped.
    public var propertyDictionary: [String: DBusValue]? {
        stringKeyed?.mapValues(\.unwrapped)
    }

    /// The file descriptor of an `h` value.
    public var unixFD: UnixFileDescriptor? {
        if case .unixFD(let value) = unwrapped { return value }
        return nil
    }
}

extension DBusValue: CustomStringConvertible {
    public var description: String {
        switch self {
        case .byte(let v): "\(v)"
        case .boolean(let v): "\(v)"
        case .int16(let v): "\(v)"
        case .uint16(let v): "\(v)"
        case .int32(let v): "\(v)"
        case .uint32(let v): "\(v)"
        case .int64(let v): "\(v)"
        case .uint64(let v): "\(v)"
        case .double(let v): "\(v)"
        case .string(let v): "\"\(v)\""
        case .objectPath(let v), .signature(let v): v
        case .unixFD(let v): "fd \(v.rawValue)"
        case .bytes(let v): "[" + v.map { String($0, radix: 16) }.joined(separator: " ") + "]"
        case .array(_, let v): "[" + v.map(\.description).joined(separator: ", ") + "]"
        case .dictionary(_, _, let v): "{" + v.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + "}"
        case .structure(let v): "(" + v.map(\.description).joined(separator: ", ") + ")"
        case .variant(let v): "<\(v)>"
        }
    }
}
