import DSU
import Timebase

/// The clients that asked for controller data, and who may be sent what.
///
/// A subscription lapses `lifetime` after its last renewal. At most `capacity` clients are held,
/// at most `capacityPerAddress` of them from one IP address: a newcomer always gets a place,
/// taking the stalest one (the client whose last request is the oldest) from its own address
/// when that address holds its share, else from everyone when the table is full. Squatters
/// that renew less often than a real client therefore cannot keep it out, and one address
/// cannot take more than its share with many ports.
///
/// A client is unconfirmed until it renews `confirmationDelay` or more after its first request
/// (see `DSUClient.confirmed`); until then each data request it sends buys it one data message,
/// at most `creditLimit` banked.
struct DSUClientTable {
    /// How many data messages an unconfirmed client may have banked.
    static let creditLimit = DSUProtocol.slotCount

    /// How a request was taken.
    enum Admission: Equatable {
        /// The client was held already.
        case renewed
        /// A new client, in a free place.
        case added
        /// A new client, in the place of the stalest one.
        case replaced
    }

    let capacity: Int
    let capacityPerAddress: Int
    let lifetime: TimeSpan
    let confirmationDelay: TimeSpan
    private(set) var clients: [DSUClient] = []

    init(capacity: Int, capacityPerAddress: Int, lifetime: TimeSpan, confirmationDelay: TimeSpan) {
        self.capacity = capacity
        self.capacityPerAddress = capacityPerAddress
        self.lifetime = lifetime
        self.confirmationDelay = confirmationDelay
    }

    /// Renews (or makes) `peer`'s subscription at `now`.
    mutating func subscribe(_ peer: UDPPeer, to subscription: DSUSubscription, at now: MonotonicTime) -> Admission {
        let admission: Admission
        let index: Int
        if let existing = clients.firstIndex(where: { $0.peer == peer }), clients[existing].lastUntil > now {
            index = existing
            admission = .renewed
            if !clients[index].confirmed && now - clients[index].firstRequest >= confirmationDelay {
                clients[index].confirmed = true
            }
        } else {
            // A client whose subscriptions all lapsed goes with the others: it starts again, unconfirmed.
            removeLapsed(at: now)
            admission = makeRoom(for: peer)
            clients.append(DSUClient(peer: peer, at: now))
            index = clients.count - 1
        }
        clients[index].lastRequest = now
        clients[index].credit = min(clients[index].credit + 1, Self.creditLimit)
        clients[index].hold(subscription, until: now + lifetime)
        return admission
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

    /// Frees a place for `peer` if its address holds its share or the table is full: the
    /// stalest of its address's clients, or of all.
    private mutating func makeRoom(for peer: UDPPeer) -> Admission {
        var sameAddress = 0
        var stalestOfAddress: Int?
        var stalest: Int?
        for index in clients.indices {
            let lastRequest = clients[index].lastRequest
            if clients[index].peer.address == peer.address {
                sameAddress += 1
                if stalestOfAddress.map({ lastRequest < clients[$0].lastRequest }) ?? true { stalestOfAddress = index }
            }
            if stalest.map({ lastRequest < clients[$0].lastRequest }) ?? true { stalest = index }
        }
        let victim: Int?
        if sameAddress >= capacityPerAddress {
            victim = stalestOfAddress
        } else if clients.count >= capacity {
            victim = stalest
        } else {
            victim = nil
        }
        guard let victim else { return .added }
        clients.remove(at: victim)
        return .replaced
    }
}
