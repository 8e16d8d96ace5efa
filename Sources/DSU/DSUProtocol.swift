/// The DSU ("cemuhook") protocol's constants: UDP, little endian, version 1001.
///
/// Every message is a 16-byte header (magic, version, the length of what follows the header,
/// a CRC32 of the whole message computed with the CRC field zeroed, the sender's id), then a
/// 32-bit message type and the type's payload.
public enum DSUProtocol {
    /// The only protocol version there is.
    public static let version: UInt16 = 1001
    /// The port clients look at unless told otherwise.
    public static let defaultPort: UInt16 = 26760
    /// The magic of a message from a server.
    public static let serverMagic: [UInt8] = Array("DSUS".utf8)
    /// The magic of a message from a client.
    public static let clientMagic: [UInt8] = Array("DSUC".utf8)
    /// The header's length: magic, version, length, CRC32, sender id.
    public static let headerLength = 16
    /// Where the CRC32 sits in the header.
    public static let crcOffset = 8
    /// The header and the message type: the shortest message there is.
    public static let minimumMessageLength = headerLength + 4
    /// The longest message of the protocol (controller data, 100 bytes): a datagram longer
    /// than this is no request of this protocol.
    public static let maximumMessageLength = 100
    /// How many controller slots the protocol has.
    public static let slotCount = 4
}

/// What a message carries; a reply has its request's type.
public enum DSUMessageType: UInt32, Sendable {
    /// The protocol version the server speaks.
    case version = 0x10_0000
    /// Which controller each slot holds.
    case controllerInfo = 0x10_0001
    /// A controller's state (a client's request subscribes to it).
    case controllerData = 0x10_0002
}
