/// Where each field sits in the 160-bit packet (bit offsets from the most
/// significant bit of byte 0, and widths).
public enum PacketLayout {
    /// The length of one notification in bytes.
    public static let length = 20

    public static let time = (offset: 0, width: 9)
    public static let sequence = (offset: 9, width: 5)
    public static let orientation = (offset: 14, width: 13)
    public static let acceleration = (offset: 53, width: 13)
    public static let gyro = (offset: 92, width: 13)
    public static let touchX = (offset: 131, width: 8)
    public static let touchY = (offset: 139, width: 8)
    public static let buttons = (offset: 147, width: 5)
    public static let status = (offset: 152, width: 8)

    /// Signed fields hold 13-bit two's complement: -4096...4095.
    public static let signedRange: ClosedRange<Int16> = -4096...4095
}

/// Why a notification could not be decoded.
public enum PacketDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The notification was not exactly 20 bytes long.
    case wrongLength(Int)
    /// A packet of `family` was not `expected` bytes long.
    case familyWrongLength(family: ControllerFamilyID, count: Int, expected: Int)
    /// A 2-byte notification: the controller echoing a command, not input.
    case commandEcho(UInt16)

    public var description: String {
        switch self {
        case .wrongLength(let count):
            return "a packet is \(PacketLayout.length) bytes, this one has \(count)"
        case .familyWrongLength(let family, let count, let expected):
            let article = family.name.first.map { "aeiou".contains($0) } == true ? "an" : "a"
            return "\(article) \(family.name) packet is \(expected) bytes, this one has \(count)"
        case .commandEcho(let command):
            return "a command echo (\(Hex.encode([UInt8(command & 0xFF), UInt8(command >> 8)]))), not input"
        }
    }
}
