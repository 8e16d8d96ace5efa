import DSU
import Timebase

/// The peers that sent requests, and who may be sent what.
///
/// A peer's entry (and each subscription) lapses `lifetime` after its last request. At most
/// `capacity` peers are held, at most `capacityPerAddress` of them from one IP address. A
/// confirmed peer keeps its place while it renews within `lifetime`. A newcomer that finds the
/// places held (its own address's, when that address holds its share, else all) takes the place
/// of the newest unconfirmed peer there, or is refused when every one is confirmed: squatters,
/// however often they ask, cannot take a place from a client that renews on time, and newcomers
/// in a flood take each other's places, not that of a client that came before them.
///
/// A peer is unconfirmed until its requests have run for `confirmationDelay`, each within
/// `lifetime` of the one before (see `DSUClient.confirmed`); one that comes later finds the
/// entry lapsed and starts again. Until confirmed, what it is sent never exceeds, in bytes, what
/// it sent; once confirmed it is sent everything while its entry holds.
struct DSUClientTable {
    /// How a request was taken.
    enum Admission: Equatable {
        /// The peer was held already.
        case renewed
        /// A new peer, in a free place.
        case added
        /// A new peer, in the place of the newest unconfirmed one.
        case replaced
    }

    let capacity: Int
    let capacityPerAddress: Int
    let lifetime: TimeSpan
    let confirmationDelay: TimeSpan
    /// How often an unconfirmed subscriber may be sent a controller-info message in place of
    /// a data message (see `DSUServer`).
    let pingInterval: TimeSpan
    private(set) var clients: [DSUClient] = []

    init(
        capacity: Int, capacityPerAddress: Int, lifetime: TimeSpan, confirmationDelay: TimeSpan, pingInterval: TimeSpan
    ) {
        self.capacity = capacity
        self.capacityPerAddress = capacityPerAddress
        self.lifetime = lifetime
        self.confirmationDelay = confirmationDelay
        self.pingInterval = pingInterval
    }

    /// Takes a request of `bytes` bytes from `peer` at `now`: renews its entry or makes one.
    /// The entry's index, and how it was taken; nil when a newcomer finds no place it may take.
    mutating func note(_ peer: UDPPeer, bytes: Int, at now: MonotonicTime) -> (index: Int, admission: Admission)? {
        if let index = clients.firstIndex(where: { $0.peer == peer }), clients[index].lastRequest + lifetime > now {
            take(bytes, at: index, now: now)
            return (index, .renewed)
        }
        // A peer whose entry lapsed goes with the others: it starts again, unconfirmed.
        removeLapsed(at: now)
        guard let admission = makeRoom(for: peer) else { return nil }
        clients.append(DSUClient(peer: peer, at: now))
        take(bytes, at: clients.count - 1, now: now)
        return (clients.count - 1, admission)
    }

    private mutating func take(_ bytes: Int, at index: Int, now: MonotonicTime) {
        clients[index].lastRequest = now
        guard !clients[index].confirmed else { return }
        clients[index].bytesReceived += bytes
        if now - clients[index].firstRequest >= confirmationDelay { clients[index].confirmed = true }
    }

    /// Makes or renews the subscription of the peer at `index`, at `now`.
    mutating func subscribe(at index: Int, to subscription: DSUSubscription, at now: MonotonicTime) {
        clients[index].hold(subscription, until: now + lifetime)
    }

    /// Whether the peer at `index` is confirmed and its entry holds at `now`.
    func isConfirmed(at index: Int, now: MonotonicTime) -> Bool {
        clients[index].confirmed && clients[index].lastRequest + lifetime > now
    }

    /// Whether a datagram of `bytes` may be sent to the peer at `index` at `now`: it is confirmed
    /// and its entry holds, or unconfirmed and has sent at least as much as it would then have
    /// been sent (the datagram is then counted).
    mutating func pays(_ bytes: Int, at index: Int, now: MonotonicTime) -> Bool {
        if clients[index].confirmed { return isConfirmed(at: index, now: now) }
        guard clients[index].bytesSent + bytes <= clients[index].bytesReceived else { return false }
        clients[index].bytesSent += bytes
        return true
    }

    /// Whether the unconfirmed peer at `index` may be sent, at `now`, a message of `bytes` in
    /// place of a data message: none for `pingInterval` before, and paid for (`pays`).
    mutating func paysPing(_ bytes: Int, at index: Int, now: MonotonicTime) -> Bool {
        guard !clients[index].confirmed else { return false }
        if let last = clients[index].lastPing, now - last < pingInterval { return false }
        guard pays(bytes, at: index, now: now) else { return false }
        clients[index].lastPing = now
        return true
    }

    /// Forgets `peer` (an ICMP error says nobody reads there); false when it was not held.
    mutating func remove(_ peer: UDPPeer) -> Bool {
        guard let index = clients.firstIndex(where: { $0.peer == peer }) else { return false }
        clients.remove(at: index)
        return true
    }

    /// Forgets the peers whose last request is `lifetime` old at `now`.
    mutating func removeLapsed(at now: MonotonicTime) {
        clients.removeAll { $0.lastRequest + lifetime <= now }
    }

    /// Frees a place for `peer` if its address holds its share or the table is full: the
    /// newest unconfirmed peer's, of its address or of all (every entry held is live: the lapsed
    /// ones went first). Nil when every peer there is confirmed.
    private mutating func makeRoom(for peer: UDPPeer) -> Admission? {
        let sameAddress = clients.filter { $0.peer.address == peer.address }.count
        let candidates: [Int]
        if sameAddress >= capacityPerAddress {
            candidates = clients.indices.filter { clients[$0].peer.address == peer.address }
        } else if clients.count >= capacity {
            candidates = Array(clients.indices)
        } else {
            return .added
        }
        let unconfirmed = candidates.filter { !clients[$0].confirmed }
        guard let newest = unconfirmed.max(by: { clients[$0].firstRequest < clients[$1].firstRequest }) else { return nil }
        clients.remove(at: newest)
        return .replaced
    }
}
