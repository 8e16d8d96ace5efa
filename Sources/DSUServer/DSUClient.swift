import DSU
import Timebase

/// One peer that sent requests: what it subscribed to, when it asked, and whether it has shown
/// it is a real client (see `DSUServer` for what that bounds).
struct DSUClient {
    let peer: UDPPeer
    /// Until when each kind of subscription holds.
    var allSlotsUntil: MonotonicTime?
    var slotUntil: [MonotonicTime?] = Array(repeating: nil, count: DSUProtocol.slotCount)
    /// At most `DSUProtocol.slotCount` MACs, the oldest renewal making room.
    var macUntil: [(mac: DSUMACAddress, until: MonotonicTime)] = []
    /// When it first sent a request, this time round (a peer whose entry lapsed starts again).
    let firstRequest: MonotonicTime
    /// When it last sent a request (of any kind).
    var lastRequest: MonotonicTime
    /// Whether its requests have run for `DSUClientTable.confirmationDelay` or more, its entry
    /// never lapsing in between and no ICMP error coming back for it.
    var confirmed = false
    /// Until confirmed: the bytes it sent, and the bytes it was sent, which never exceed them.
    var bytesReceived = 0
    var bytesSent = 0
    /// When it was last sent a controller-info message in place of a data message it could not
    /// be paid for (see `DSUServer`).
    var lastPing: MonotonicTime?

    init(peer: UDPPeer, at now: MonotonicTime) {
        self.peer = peer
        firstRequest = now
        lastRequest = now
    }

    /// The last moment any of its subscriptions holds.
    var lastSubscribed: MonotonicTime {
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
