/// Counts a controller's packets: received, lost (gaps in the 5-bit sequence counter) and malformed.
public struct PacketCounter: Sendable {
    /// The counts so far.
    public private(set) var statistics = DDControllerStatistics()
    private var lastSequence: UInt8?

    public init() {}

    /// Counts a packet with `sequence`, and the packets missing before it. Inlined: it runs on
    /// every packet, and the call cost as much as the count.
    @inline(__always)
    public mutating func count(sequence: UInt8) {
        statistics.received += 1
        if let last = lastSequence {
            // The 5-bit counter wraps at 32 (the difference modulo 32 is its low 5 bits); a repeat
            // counts as nothing lost.
            let gap = (sequence &- last &- 1) & 31
            if gap != 31 { statistics.lost += Int(gap) }
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
