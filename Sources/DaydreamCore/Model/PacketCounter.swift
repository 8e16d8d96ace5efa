/// Counts a controller's packets: received, lost (gaps in the 5-bit sequence counter) and malformed.
public struct PacketCounter: Sendable {
    /// The counts so far.
    public private(set) var statistics = DDControllerStatistics()
    private var lastSequence: UInt8?

    public init() {}

    /// Counts a packet with `sequence`, and the packets missing before it.
    public mutating func count(sequence: UInt8) {
        statistics.received += 1
        if let last = lastSequence {
            // The 5-bit counter wraps at 32; a repeat counts as nothing lost.
            let gap = (Int(sequence) - Int(last) - 1 + 32) % 32
            if gap != 31 { statistics.lost += gap }
        }
        lastSequence = sequence
    }

    /// Counts a notification that was not a packet.
    public mutating func countMalformed() {
        statistics.malformed += 1
    }

    /// Forgets the last sequence number (the link went down or came up): nothing counts as lost across it.
    public mutating func restartSequence() {
        lastSequence = nil
    }
}
