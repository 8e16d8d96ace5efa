/// How many datagrams were dropped, per reason.
public struct DSUDropCounts: Equatable, Sendable, CustomStringConvertible {
    private var counts = [Int](repeating: 0, count: DSUDropReason.allCases.count)

    public init() {}

    /// The count for `reason`.
    public subscript(reason: DSUDropReason) -> Int {
        counts[Self.index(of: reason)]
    }

    /// Counts one more datagram dropped for `reason`.
    public mutating func count(_ reason: DSUDropReason) {
        counts[Self.index(of: reason)] += 1
    }

    /// Every datagram dropped, whatever the reason.
    public var total: Int { counts.reduce(0, +) }

    /// `reason=count` for each reason counted, in declaration order; "none" when nothing was.
    public var description: String {
        let parts = DSUDropReason.allCases.filter { self[$0] > 0 }.map { "\($0)=\(self[$0])" }
        return parts.isEmpty ? "none" : parts.joined(separator: " ")
    }

    private static func index(of reason: DSUDropReason) -> Int {
        DSUDropReason.allCases.firstIndex(of: reason) ?? 0
    }
}
