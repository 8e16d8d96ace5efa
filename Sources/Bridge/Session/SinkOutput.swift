import Mapping
import Timebase
import VirtualDevice

/// Sends a session's events to an `OutputSink`: the controller's `VirtualDeviceSet` in the daemon.
///
/// A write that fails is logged (the first failure of a run in full, repeats at debug level so a
/// broken device cannot flood the journal); the events after it are still written.
@MainActor
public final class SinkOutput<Sink: OutputSink>: BridgeOutput {
    /// The sink written to.
    public let sink: Sink
    /// Names the devices in log lines, e.g. the controller's address.
    public var label: String
    private var failing = false

    /// An output writing to `sink`.
    public init(sink: Sink, label: String) {
        self.sink = sink
        self.label = label
    }

    public func send(_ events: [OutputEvent], at time: MonotonicTime) {
        do {
            try sink.send(events)
            if failing {
                failing = false
                Logger.info("\(label): writing to the virtual devices works again")
            }
        } catch {
            report(error)
        }
    }

    /// Releases whatever the devices still hold down (the sink's own record of what is down):
    /// the safety net after the engine's own release on exit.
    public func releaseAll() {
        do {
            try sink.releaseAll()
        } catch {
            report(error)
        }
    }

    private func report(_ error: VirtualDeviceError) {
        if failing {
            Logger.debug("\(label): \(error)")
        } else {
            failing = true
            Logger.error("\(label): \(error)")
        }
    }
}
