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
    /// The controller's feed, while it exists.
    weak var feed: ControllerFeed?

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
