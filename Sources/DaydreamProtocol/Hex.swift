/// Hexadecimal text to bytes and back.
public enum Hex {
    /// The bytes `text` spells, two digits a byte, upper or lower case; spaces,
    /// colons and dashes between bytes are ignored. Nil when it is not hex.
    public static func decode(_ text: String) -> [UInt8]? {
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count / 2)
        var high: UInt8?
        for char in text.utf8 {
            if char == 0x20 || char == 0x3A || char == 0x2D { // space, colon, dash
                if high != nil { return nil }
                continue
            }
            guard let nibble = nibble(char) else { return nil }
            if let pending = high {
                result.append(pending << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return high == nil ? result : nil
    }

    /// Upper-case hex, two digits a byte, no separators.
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let digits = Array("0123456789ABCDEF".utf8)
        var utf8: [UInt8] = []
        for byte in bytes {
            utf8.append(digits[Int(byte >> 4)])
            utf8.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    private static func nibble(_ char: UInt8) -> UInt8? {
        switch char {
        case 0x30...0x39: return char - 0x30
        case 0x41...0x46: return char - 0x41 + 10
        case 0x61...0x66: return char - 0x61 + 10
        default: return nil
        }
    }
}
