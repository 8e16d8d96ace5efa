import DaydreamCore
import DaydreamProtocol
import Timebase

/// Follows one controller for the monitor: what it shows, and whether the screen needs redrawing.
///
/// A `ControllerConsumer` of the controller's feed: it keeps the newest packet and the rate;
/// the packet counts, the link's state, battery and firmware are the feed's.
@MainActor
public final class MonitorModel: ControllerConsumer {
    /// The feed shown, once there is one.
    public private(set) weak var feed: ControllerFeed?
    /// Where the data comes from, for the title line.
    public let source: String
    /// A status line, e.g. "end of the recording" or a BlueZ problem.
    public var message: String? {
        didSet { markChanged() }
    }
    /// A running daemon's DSU server and clients (the control socket's `dsu` lines), or nil
    /// when no daemon answers.
    public var dsu: [String]? {
        didSet { if dsu != oldValue { markChanged() } }
    }
    /// The clock packet times are on: the real one live, the player's virtual one in a replay.
    public var clock: @MainActor () -> MonotonicTime = { MonotonicTime.now() }
    /// Called whenever something shown changed (the app schedules a redraw).
    public var changeHandler: (@MainActor () -> Void)?
    /// True when something changed since the last `state(at:)`.
    public private(set) var changed = true
    private var meter = PacketRateMeter()
    private var lastPacket: DaydreamPacket?

    /// A model showing `feed` (or nothing yet, until `attach`).
    public init(feed: ControllerFeed?, source: String) {
        self.source = source
        if let feed { attach(feed) }
    }

    /// Shows `feed` from now on, as one of its consumers.
    public func attach(_ feed: ControllerFeed) {
        self.feed?.detach(self)
        self.feed = feed
        meter = PacketRateMeter()
        lastPacket = nil
        feed.attach(self)
        markChanged()
    }

    public func receive(_ packet: DaydreamPacket, at time: MonotonicTime) {
        lastPacket = packet
        meter.record(at: time)
        markChanged()
    }

    public func linkChanged(connected: Bool, at time: MonotonicTime) {
        markChanged()
    }

    public func batteryChanged(percent: Int, at time: MonotonicTime) { markChanged() }

    public func deviceInformationChanged(_ information: ControllerDeviceInformation) { markChanged() }

    /// Marks the screen for redrawing (window resized).
    public func invalidate() { markChanged() }

    private func markChanged() {
        changed = true
        changeHandler?()
    }

    /// What the screen shows now, by `clock`.
    public func currentState() -> MonitorState { state(at: clock()) }

    /// What the screen shows at `time`.
    public func state(at time: MonotonicTime) -> MonitorState {
        changed = false
        guard let feed else {
            return MonitorState(source: source, message: message ?? "waiting for a controller (press its home button)", dsu: dsu)
        }
        let statistics = feed.statistics
        var packet = lastPacket
        if !feed.isConnected {
            // A disconnect releases every button and lifts the finger; the last motion stays shown.
            packet?.buttons = []
            packet?.touchX = 0
            packet?.touchY = 0
        }
        return MonitorState(
            address: feed.address, source: source, connected: feed.isConnected,
            packet: packet, battery: feed.batteryPercent,
            firmware: feed.deviceInformation.firmwareVersion, packetRate: meter.rate(at: time),
            received: statistics.received, lost: statistics.lost, malformed: statistics.malformed, message: message, dsu: dsu
        )
    }
}
