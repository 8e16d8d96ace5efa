extension Hex {
    /// The six bytes of a Bluetooth address written `AA:BB:CC:DD:EE:FF` (two hex digits a byte,
    /// either case), in the order written; nil when the text is not one.
    public static func bluetoothAddress(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            // Hex digits only: `UInt8(_:radix:)` would also take a sign ("+F").
            guard part.count == 2, part.allSatisfy(\.isHexDigit), let byte = UInt8(part, radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }

    /// `bytes` written as a Bluetooth address: two hex digits a byte, joined by colons,
    /// `AA:BB:CC` when `uppercase`, else `aa:bb:cc`.
    public static func bluetoothAddress(_ bytes: [UInt8], uppercase: Bool) -> String {
        bytes.map { byte in
            let digits = String(byte, radix: 16, uppercase: uppercase)
            return byte < 0x10 ? "0" + digits : digits
        }.joined(separator: ":")
    }
}
