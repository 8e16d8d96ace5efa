import Daydream
import Timebase

/// Follows one controller for the monitor: what it shows, and whether the screen needs redrawing.
@MainActor
public final class MonitorModel {
    /// The controller shown.
    public let controller: DDController
    /// Where the data comes from, for the title line.
    public let source: String
    /// A status line, e.g. "end of the recording".
    public var message: String?
    /// The clock packet times are on: the real one live, the player's virtual one in a replay.
    public var clock: @MainActor () -> MonotonicTime = { MonotonicTime.now() }
    /// True when something changed since the last `state(at:)`.
    public private(set) var changed = true
    private var meter = PacketRateMeter()

    /// A model for `controller`; installs its packet and connection handlers.
    public init(controller: DDController, source: String) {
        self.controller = controller
        self.source = source
        controller.packetHandler = { [weak self] _, _, time in
            self?.meter.record(at: time)
            self?.changed = true
        }
        controller.connectionChangedHandler = { [weak self] _, _ in self?.changed = true }
    }

    /// Marks the screen for redrawing (battery read, window resized).
    public func invalidate() { changed = true }

    /// What the screen shows now, by `clock`.
    public func currentState() -> MonitorState { state(at: clock()) }

    /// What the screen shows at `time`.
    public func state(at time: MonotonicTime) -> MonitorState {
        changed = false
        let statistics = controller.statistics
        var packet = controller.lastPacket
        if !controller.isConnected {
            // A disconnect releases every button and lifts the finger; the last motion stays shown.
            packet?.buttons = []
            packet?.touchX = 0
            packet?.touchY = 0
        }
        return MonitorState(
            address: controller.address, source: source, connected: controller.isConnected,
            packet: packet, battery: controller.batteryLevel.map { Int(($0 * 100).rounded()) },
            firmware: controller.firmwareVersion, packetRate: meter.rate(at: time),
            received: statistics.received, lost: statistics.lost, malformed: statistics.malformed, message: message
        )
    }
}
