/// The path of keys from the document's root to a value, e.g. `profile.gamepad.touchpad.mode`.
public struct KeyPath: Hashable, Sendable, CustomStringConvertible {
    /// The keys, outermost first.
    public var keys: [String]

    /// A path made of `keys`.
    public init(_ keys: [String] = []) {
        self.keys = keys
    }

    /// This path with `key` appended.
    public func appending(_ key: String) -> KeyPath {
        KeyPath(keys + [key])
    }

    /// This path with an array index appended, shown as `[INDEX]`.
    public func appending(index: Int) -> KeyPath {
        var keys = keys
        if let last = keys.popLast() {
            keys.append("\(last)[\(index)]")
        } else {
            keys.append("[\(index)]")
        }
        return KeyPath(keys)
    }

    /// The path as TOML writes it: bare keys joined by dots, other keys quoted.
    public var description: String {
        keys.map(Self.quotedIfNeeded).joined(separator: ".")
    }

    /// The path as a table header, e.g. `[profile.gamepad]`.
    public var tableHeader: String { "[\(description)]" }

    private static func quotedIfNeeded(_ key: String) -> String {
        if key.hasSuffix("]"), let bracket = key.lastIndex(of: "[") {
            return quotedIfNeeded(String(key[..<bracket])) + key[bracket...]
        }
        let isBare = !key.isEmpty && key.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "A"..."Z", "a"..."z", "0"..."9", "-", "_": true
            default: false
            }
        }
        return isBare ? key : "\"\(key)\""
    }
}
