import DaydreamProtocol
import DaydreamCore
import Timebase

/// The bridge's controllers as seen through a `watch` stream, each as a `ControllerFeed` that
/// plays the stream's packets, link and battery as they arrive, so a view built for a live
/// controller (the monitor's model, the editor page) shows them unchanged.
@MainActor
public final class WatchedControllers {
    /// A feed per controller address, made at its first line.
    public private(set) var feeds: [String: ControllerFeed] = [:]
    /// Each controller's profile, as last said.
    public private(set) var profiles: [String: String] = [:]
    /// Runs when a controller's first line made its feed.
    public var feedAdded: (@MainActor (ControllerFeed) -> Void)?
    /// Runs for lines that are not the feed's: profiles, output events, and the bridge's own.
    public var otherLine: (@MainActor (WatchLine) -> Void)?

    /// None seen yet.
    public init() {}

    /// Plays one line, received at `time`.
    public func take(_ line: WatchLine, at time: MonotonicTime) {
        if case .config = line.event {
            otherLine?(line) // the bridge's own line: no controller's feed
            return
        }
        let feed: ControllerFeed
        if let known = feeds[line.address] {
            feed = known
        } else {
            feed = ControllerFeed(address: line.address)
            feeds[line.address] = feed
            feedAdded?(feed)
        }
        switch line.event {
        case .packet(let bytes):
            // The stream says no family: a packet's length does (a Gear VR's is 60 bytes).
            if bytes.count != feed.family.gatt.packetLength,
               let family = ControllerFamily.all.first(where: { $0.gatt.packetLength == bytes.count }) {
                feed.family = family
            }
            bytes.withUnsafeBytes { feed.receive($0, at: time) }
        case .connected: feed.linkChanged(connected: true, at: time)
        case .disconnected: feed.linkChanged(connected: false, at: time)
        case .battery(let percent): feed.batteryChanged(percent: percent, at: time)
        case .profile(let name):
            profiles[line.address] = name
            otherLine?(line)
        case .output, .gyroBias, .config: otherLine?(line)
        }
    }

    /// The stream ended: every controller counts as disconnected.
    public func endAll(at time: MonotonicTime) {
        for feed in feeds.values { feed.linkChanged(connected: false, at: time) }
    }
}
