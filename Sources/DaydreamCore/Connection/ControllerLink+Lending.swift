import BlueZ
import DaydreamProtocol

/// Lending the controller to another program (Monado takes the input characteristic with
/// `AcquireNotify`, which BlueZ grants one client at a time): the link lets go of the
/// notifications and keeps the connection and the bond.
extension ControllerLink {
    /// Lets go of the input notifications: everything the consumers hold is released (the feed
    /// reports the link down), the acquired socket is closed and any `StartNotify` session
    /// ended; the connection stays. False when the controller is not connected (nothing to lend).
    func lend() -> Bool {
        guard !isLent else { return true }
        switch state {
        case .idle, .pairing, .connecting: return false
        case .resolving, .subscribing, .streaming, .silent, .reportedDown, .lent: break
        }
        let wasStreaming = if case .streaming = state { true } else { false }
        setLent(true)
        letGoOfNotifications()
        apply(.lend)
        log.info("\(address): lent: the input notifications are let go, the connection and the bond kept")
        if wasStreaming {
            feed.linkChanged(connected: false, at: reactor.now)
            manager.linkDisconnected(self)
        }
        return true
    }

    /// Takes the controller back: subscribes again when connected (a link that is not waits for
    /// its connection, which then subscribes). Nothing when it is not lent.
    func reclaim() {
        guard isLent else { return }
        setLent(false)
        log.info("\(address): taken back: subscribing to the input notifications again")
        if case .lent = state { subscribe() }
    }

    /// The input characteristic's `NotifyAcquired` changed (at `path`): seen true while lent,
    /// another program holds it; false after that, it let go, and the controller is taken back.
    func notifyAcquiredChanged(at path: String) {
        guard isLent,
              let input = characteristic(DaydreamGATT.inputCharacteristicUUID, in: DaydreamGATT.serviceUUID),
              input.path == path else { return }
        let acquired = client.cache.properties(path, BlueZNames.gattCharacteristic)?["NotifyAcquired"]?.boolean == true
        if acquired {
            otherHolderSeen = true
        } else if otherHolderSeen {
            log.info("\(address): the other program let go of the input notifications")
            reclaim()
        }
    }
}
