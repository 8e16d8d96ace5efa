import DSU
import Timebase

/// The clients that asked for controller data, each with what it subscribed to and when it last
/// asked. A subscription lapses `DSUServer.subscriptionLifetime` after its last renewal; at most
/// `capacity` clients are held (a lapsed one makes room for a new one).
struct DSUClientTable {
    struct Client {
        let peer: UDPPeer
        /// Until when each kind of subscription holds.
        var allSlotsUntil: MonotonicTime?
        var slotUntil: [MonotonicTime?] = Array(repeating: nil, count: DSUProtocol.slotCount)
        /// At most `DSUProtocol.slotCount` MACs, the oldest renewal making room.
        var macUntil: [(mac: DSUMACAddress, until: MonotonicTime)] = []
        /// When it last asked for data (made or renewed a subscription).
        var lastRequest: MonotonicTime

        init(peer: UDPPeer, at now: MonotonicTime) {
            self.peer = peer
            lastRequest = now
        }

        /// The last moment any of its subscriptions holds.
        var lastUntil: MonotonicTime {
            var latest = allSlotsUntil ?? .zero
            for until in slotUntil { if let until, until > latest { latest = until } }
            for entry in macUntil where entry.until > latest { latest = entry.until }
            return latest
        }

        /// Whether it is subscribed, at `now`, to the slot that holds `mac`.
        func wants(slot: Int, mac: DSUMACAddress, at now: MonotonicTime) -> Bool {
            if let until = allSlotsUntil, until > now { return true }
            if let until = slotUntil[slot], until > now { return true }
            return macUntil.contains { $0.mac == mac && $0.until > now }
        }

        /// What it is subscribed to at `now`: every slot, then slots by number, then MACs.
        func subscriptions(at now: MonotonicTime) -> [DSUSubscription] {
            var result: [DSUSubscription] = []
            if let until = allSlotsUntil, until > now { result.append(.allSlots) }
            for (slot, until) in slotUntil.enumerated() {
                if let until, until > now { result.append(.slot(UInt8(slot))) }
            }
            for entry in macUntil where entry.until > now { result.append(.mac(entry.mac)) }
            return result
        }
    }

    let capacity: Int
    let lifetime: TimeSpan
    private(set) var clients: [Client] = []

    init(capacity: Int, lifetime: TimeSpan) {
        self.capacity = capacity
        self.lifetime = lifetime
    }

    /// Renews (or makes) `peer`'s subscription; false when the table is full of live clients.
    mutating func subscribe(_ peer: UDPPeer, to subscription: DSUSubscription, at now: MonotonicTime) -> Bool {
        let index: Int
        if let existing = clients.firstIndex(where: { $0.peer == peer }) {
            index = existing
        } else {
            removeLapsed(at: now)
            guard clients.count < capacity else { return false }
            clients.append(Client(peer: peer, at: now))
            index = clients.count - 1
        }
        let until = now + lifetime
        clients[index].lastRequest = now
        switch subscription {
        case .allSlots:
            clients[index].allSlotsUntil = until
        case .slot(let slot):
            clients[index].slotUntil[Int(slot)] = until
        case .mac(let mac):
            clients[index].macUntil.removeAll { $0.mac == mac }
            if clients[index].macUntil.count >= DSUProtocol.slotCount {
                if let oldest = clients[index].macUntil.indices.min(by: { clients[index].macUntil[$0].until < clients[index].macUntil[$1].until }) {
                    clients[index].macUntil.remove(at: oldest)
                }
            }
            clients[index].macUntil.append((mac, until))
        }
        return true
    }

    /// Forgets the clients none of whose subscriptions holds at `now`.
    mutating func removeLapsed(at now: MonotonicTime) {
        clients.removeAll { $0.lastUntil <= now }
    }
}
