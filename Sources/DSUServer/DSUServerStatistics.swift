import DSU

/// What the DSU server has done, for logs and tests.
public struct DSUServerStatistics: Equatable, Sendable {
    /// Datagrams dropped, per reason.
    public var dropped = DSUDropCounts()
    /// Unconfirmed peers whose place a newcomer took (the newest, when the places were held).
    public var evictedClients = 0
    /// Requests from newcomers turned away, every place they could take being held by a
    /// confirmed peer that renews on time.
    public var refusedRequests = 0
    /// Clients forgotten because an ICMP error said nobody reads at their address.
    public var unreachableClients = 0
    /// Datagrams read.
    public var received = 0
    /// Datagrams sent.
    public var sent = 0
    /// Replies and data messages not sent to an unconfirmed peer: it had not sent as many bytes
    /// as it would then have been sent.
    public var withheld = 0
    /// Datagrams the kernel refused to send (a full buffer, an unreachable client).
    public var sendFailures = 0
    /// Requests taken (answered, in what was paid for, or subscriptions renewed).
    public var requests = 0

    public init() {}
}
