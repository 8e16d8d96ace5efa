/// A slot's 6-byte MAC, as the protocol carries it: clients use it to know the same controller
/// again. The bridge puts the controller's Bluetooth address there, in the order it is written
/// (`AA:BB:CC:DD:EE:FF` is sent AA first).
public struct DSUMACAddress: Hashable, Sendable, CustomStringConvertible {
    /// The six bytes, in the order sent.
    public let bytes: [UInt8]

    /// Six zero bytes: "not applicable", as an empty slot sends it.
    public static let none = DSUMACAddress(bytes: [0, 0, 0, 0, 0, 0])

    /// The first six of `bytes`, padded with zeros when fewer.
    public init(bytes: [UInt8]) {
        self.bytes = Array((bytes + [0, 0, 0, 0, 0, 0]).prefix(6))
    }

    /// The address `AA:BB:CC:DD:EE:FF` (hex, either case), or nil when it is not one.
    public init?(bluetoothAddress: String) {
        let parts = bluetoothAddress.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard part.count == 2, let byte = UInt8(part, radix: 16) else { return nil }
            bytes.append(byte)
        }
        self.init(bytes: bytes)
    }

    public var description: String {
        bytes.map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return byte < 0x10 ? "0" + hex : hex
        }.joined(separator: ":")
    }
}
