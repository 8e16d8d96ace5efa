import DSU
import Timebase

/// The clients that asked for controller data, and who may be sent what.
///
/// A subscription lapses `lifetime` after its last renewal; at most `capacity` clients are held
/// (a lapsed one makes room for a new one).
///
/// A client is unconfirmed until it renews `confirmationDelay` or more after its first request
/// (see `DSUClient.confirmed`); until then each data request it sends buys it one data message,
/// at most `creditLimit` banked.
struct DSUClientTable {
    /// How many data messages an unconfirmed client may have banked.
    static let creditLimit = DSUProtocol.slotCount

    let capacity: Int
    let lifetime: TimeSpan
    let confirmationDelay: TimeSpan
    private(set) var clients: [DSUClient] = []

    init(capacity: Int, lifetime: TimeSpan, confirmationDelay: TimeSpan) {
        self.capacity = capacity
        self.lifetime = lifetime
        self.confirmationDelay = confirmationDelay
    }

    /// Renews (or makes) `peer`'s subscription at `now`; false when the table is full of live clients.
    mutating func subscribe(_ peer: UDPPeer, to subscription: DSUSubscription, at now: MonotonicTime) -> Bool {
        let index: Int
        if let existing = clients.firstIndex(where: { $0.peer == peer }), clients[existing].lastUntil > now {
            index = existing
            if !clients[index].confirmed && now - clients[index].firstRequest >= confirmationDelay {
                clients[index].confirmed = true
            }
        } else {
            // A client whose subscriptions all lapsed goes with the others: it starts again, unconfirmed.
            removeLapsed(at: now)
            guard clients.count < capacity else { return false }
            clients.append(DSUClient(peer: peer, at: now))
            index = clients.count - 1
        }
        clients[index].lastRequest = now
        clients[index].credit = min(clients[index].credit + 1, Self.creditLimit)
        clients[index].hold(subscription, until: now + lifetime)
        return true
    }

    /// Whether the client at `index`, subscribed to a message, is to be sent it: it is
    /// confirmed, or has credit left (spent by this message).
    mutating func takesMessage(at index: Int) -> Bool {
        if clients[index].confirmed { return true }
        guard clients[index].credit > 0 else { return false }
        clients[index].credit -= 1
        return true
    }

    /// Forgets `peer` (an ICMP error says nobody reads there); false when it was not held.
    mutating func remove(_ peer: UDPPeer) -> Bool {
        guard let index = clients.firstIndex(where: { $0.peer == peer }) else { return false }
        clients.remove(at: index)
        return true
    }

    /// Forgets the clients none of whose subscriptions holds at `now`.
    mutating func removeLapsed(at now: MonotonicTime) {
        clients.removeAll { $0.lastUntil <= now }
    }
}
