import DaydreamCore
import VirtualDevice

/// One controller's devices in the daemon: the sink its session writes each frame to, and those
/// of the devices that take the controller's own state too (a DualSense's motion, touchpad and
/// battery), which hear it from the controller's feed as every other consumer does.
@MainActor
public struct ControllerDevices {
    /// Where the session's frames go.
    public var sink: any OutputSink
    /// Attached to the controller's feed after its session, so a packet's state follows that
    /// packet's events.
    public var stateConsumers: [any ControllerConsumer]

    /// Devices writing to `sink`, of which `stateConsumers` also follow the feed.
    public init(sink: any OutputSink, stateConsumers: [any ControllerConsumer] = []) {
        self.sink = sink
        self.stateConsumers = stateConsumers
    }
}
