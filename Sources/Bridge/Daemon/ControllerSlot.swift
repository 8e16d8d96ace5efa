import DaydreamCore
import Mapping

/// One controller's place in the daemon: its devices (kept until exit, across Bluetooth drops)
/// and, once a controller has been seen, its mapping session.
@MainActor
final class ControllerSlot<Output: DeviceOutput> {
    /// The controller's address; nil for the devices made at start before any controller was seen.
    var address: String?
    /// The devices.
    var output: Output
    /// The mapping, once a controller is attached.
    var session: ControllerSession<Output>?
    /// The controller's feed, once one was seen; the session is attached to it. Held, not weak:
    /// a weakly referenced feed would take the runtime's slow path on every retain and release.
    var feed: ControllerFeed?

    /// Attaches the session to `feed`, leaving the feed it had (a new bus connection brings new feeds).
    func attachSession(to feed: ControllerFeed) {
        guard let session else { return }
        if let previous = self.feed, previous !== feed { previous.detach(session) }
        self.feed = feed
        feed.attach(session)
    }

    /// Replaces the session, moving the feed from the old one to the new one.
    func replaceSession(with new: ControllerSession<Output>) {
        if let session { feed?.detach(session) }
        session = new
        if let feed { feed.attach(new) }
    }

    init(address: String?, output: Output) {
        self.address = address
        self.output = output
    }

    /// `C0:DD:EE:00:00:01: gamepad, connected`, for STATUS= and `status`.
    var statusLine: String {
        guard let address, let session else { return "devices ready, no controller yet" }
        let link = feed?.isConnected == true ? "connected" : "disconnected"
        return "\(address): \(session.profileName), \(link)"
    }
}
