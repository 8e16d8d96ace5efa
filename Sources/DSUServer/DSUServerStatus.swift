import DSU

/// Who the DSU server serves, as plain values: its address, each live client, and what it dropped.
public struct DSUServerStatus: Equatable, Sendable {
    /// One client holding a live subscription.
    public struct Client: Equatable, Sendable {
        /// Its `ADDRESS:PORT`.
        public var peer: String
        /// What it is subscribed to: every slot, then slots by number, then MACs.
        public var subscriptions: [DSUSubscription]
        /// Seconds since it last asked for data.
        public var secondsSinceLastRequest: Double
        /// Whether it has kept asking as a real client does; until then it is sent no more
        /// bytes than it sent (see `DSUServer`).
        public var confirmed: Bool

        public init(peer: String, subscriptions: [DSUSubscription], secondsSinceLastRequest: Double, confirmed: Bool = true) {
            self.peer = peer
            self.subscriptions = subscriptions
            self.secondsSinceLastRequest = secondsSinceLastRequest
            self.confirmed = confirmed
        }
    }

    /// Where the server listens.
    public var address: DSUListenAddress
    /// The live clients, oldest first.
    public var clients: [Client]
    /// Datagrams dropped, per reason.
    public var dropped: DSUDropCounts
    /// Unconfirmed clients whose place a newcomer took.
    public var evictedClients: Int
    /// Requests from newcomers turned away: every place they could take was held by a confirmed
    /// client that renews on time.
    public var refusedRequests: Int

    public init(address: DSUListenAddress, clients: [Client], dropped: DSUDropCounts, evictedClients: Int, refusedRequests: Int = 0) {
        self.address = address
        self.clients = clients
        self.dropped = dropped
        self.evictedClients = evictedClients
        self.refusedRequests = refusedRequests
    }

    /// The control socket's lines: the server first, then one per client.
    ///
    /// ```
    /// 127.0.0.1:26760: 2 clients, dropped none, evicted 0, refused 0
    /// client 127.0.0.1:40000: all slots, slot 1, mac C0:DD:EE:00:00:0A; last request 0.4 s ago
    /// client 127.0.0.1:40002: slot 0; last request 0.1 s ago; unconfirmed
    /// ```
    public var lines: [String] {
        let count = clients.count == 1 ? "1 client" : "\(clients.count) clients"
        let server = "\(address): \(count), dropped \(dropped), evicted \(evictedClients), refused \(refusedRequests)"
        return [server] + clients.map { client in
            let wanted = client.subscriptions.map(Self.describe).joined(separator: ", ")
            let trial = client.confirmed ? "" : "; unconfirmed"
            return "client \(client.peer): \(wanted); last request \(Self.tenths(client.secondsSinceLastRequest)) s ago\(trial)"
        }
    }

    private static func describe(_ subscription: DSUSubscription) -> String {
        switch subscription {
        case .allSlots: "all slots"
        case .slot(let slot): "slot \(slot)"
        case .mac(let mac): "mac \(mac)"
        }
    }

    /// `seconds` to one decimal, without Foundation.
    private static func tenths(_ seconds: Double) -> String {
        let tenths = Int((max(seconds, 0) * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
