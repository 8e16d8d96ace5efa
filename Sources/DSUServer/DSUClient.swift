import DSU
import Timebase

/// One peer that asked for controller data: what it subscribed to, when it asked, and whether it
/// has shown it is a real client (see `DSUServer` for what that bounds).
struct DSUClient {
    let peer: UDPPeer
    /// Until when each kind of subscription holds.
    var allSlotsUntil: MonotonicTime?
    var slotUntil: [MonotonicTime?] = Array(repeating: nil, count: DSUProtocol.slotCount)
    /// At most `DSUProtocol.slotCount` MACs, the oldest renewal making room.
    var macUntil: [(mac: DSUMACAddress, until: MonotonicTime)] = []
    /// When it first asked for data, this time round (a client whose subscriptions all lapsed
    /// starts again).
    let firstRequest: MonotonicTime
    /// When it last asked for data (made or renewed a subscription).
    var lastRequest: MonotonicTime
    /// Whether it renewed `DSUServer.confirmationDelay` or more after its first request, its
    /// subscription never lapsing in between and no ICMP error coming back for it: it then gets
    /// every message it subscribed to.
    var confirmed = false
    /// Until confirmed: how many data messages it may still be sent (one per request it sent,
    /// at most `DSUClientTable.creditLimit`).
    var credit = 0

    init(peer: UDPPeer, at now: MonotonicTime) {
        self.peer = peer
        firstRequest = now
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

    /// Holds `subscription` until `until`.
    mutating func hold(_ subscription: DSUSubscription, until: MonotonicTime) {
        switch subscription {
        case .allSlots:
            allSlotsUntil = until
        case .slot(let slot):
            slotUntil[Int(slot)] = until
        case .mac(let mac):
            macUntil.removeAll { $0.mac == mac }
            if macUntil.count >= DSUProtocol.slotCount,
               let oldest = macUntil.indices.min(by: { macUntil[$0].until < macUntil[$1].until }) {
                macUntil.remove(at: oldest)
            }
            macUntil.append((mac, until))
        }
    }
}
