import DaydreamCore
import Mapping

/// One controller's place in the daemon: its devices (kept until exit, across Bluetooth drops)
/// and, once a controller has been seen, its mapping session; both are attached to the
/// controller's feed, the session first.
@MainActor
final class ControllerSlot {
    /// The controller's address; nil for the devices made at start before any controller was seen.
    var address: String?
    /// The devices.
    private(set) var devices: ControllerDevices
    /// The mapping, once a controller is attached.
    private(set) var session: ControllerSession?
    /// The controller's feed, once one was seen. Held, not weak: a weakly referenced feed would
    /// take the runtime's slow path on every retain and release.
    private(set) var feed: ControllerFeed?

    init(address: String?, devices: ControllerDevices) {
        self.address = address
        self.devices = devices
    }

    /// What the feed hands each packet to, in order: the session, then the devices that follow it.
    private var consumers: [any ControllerConsumer] {
        (session.map { [$0] } ?? []) + devices.stateConsumers
    }

    /// Attaches the session and the devices to `feed`, leaving the feed they had (a new bus
    /// connection brings new feeds).
    func attach(to feed: ControllerFeed) {
        if let previous = self.feed, previous !== feed { detachFromFeed() }
        self.feed = feed
        attachToFeed()
    }

    /// Takes the session and the devices off the feed (for a tap to go before them, or at exit).
    func detachFromFeed() {
        for consumer in consumers { feed?.detach(consumer) }
    }

    /// Puts the session and the devices on the feed again, after whatever was attached meanwhile.
    func attachToFeed() {
        guard let feed else { return }
        for consumer in consumers { feed.attach(consumer) }
    }

    /// Replaces the session (or gives the first), moving the feed from the old one to the new one.
    func replaceSession(with new: ControllerSession) {
        detachFromFeed()
        session = new
        attachToFeed()
    }

    /// Replaces the devices, moving the feed from the old ones to the new ones.
    func replaceDevices(with new: ControllerDevices) {
        detachFromFeed()
        devices = new
        attachToFeed()
    }
}
