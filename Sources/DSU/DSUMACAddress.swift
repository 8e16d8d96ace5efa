import DaydreamProtocol

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
        guard let bytes = Hex.bluetoothAddress(bluetoothAddress) else { return nil }
        self.init(bytes: bytes)
    }

    /// `AA:BB:CC:DD:EE:FF`.
    public var description: String { Hex.bluetoothAddress(bytes, uppercase: true) }
}
