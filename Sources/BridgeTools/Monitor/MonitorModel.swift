import DaydreamCore
import Timebase

/// Follows one controller for the monitor: what it shows, and whether the screen needs redrawing.
@MainActor
public final class MonitorModel {
    /// The controller shown, once there is one.
    public private(set) var controller: DDController?
    /// Where the data comes from, for the title line.
    public let source: String
    /// A status line, e.g. "end of the recording" or a BlueZ problem.
    public var message: String? {
        didSet { markChanged() }
    }
    /// The clock packet times are on: the real one live, the player's virtual one in a replay.
    public var clock: @MainActor () -> MonotonicTime = { MonotonicTime.now() }
    /// Called whenever something shown changed (the app schedules a redraw).
    public var changeHandler: (@MainActor () -> Void)?
    /// True when something changed since the last `state(at:)`.
    public private(set) var changed = true
    private var meter = PacketRateMeter()

    /// A model showing `controller` (or nothing yet, until `attach`).
    public init(controller: DDController?, source: String) {
        self.source = source
        if let controller { attach(controller) }
    }

    /// Shows `controller` from now on; installs its packet and connection handlers.
    public func attach(_ controller: DDController) {
        self.controller = controller
        meter = PacketRateMeter()
        controller.packetHandler = { [weak self] _, _, time in
            self?.meter.record(at: time)
            self?.markChanged()
        }
        controller.connectionChangedHandler = { [weak self] _, _ in self?.markChanged() }
        markChanged()
    }

    /// Marks the screen for redrawing (battery read, window resized).
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
        guard let controller else {
            return MonitorState(source: source, message: message ?? "waiting for a controller (press its home button)")
        }
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
