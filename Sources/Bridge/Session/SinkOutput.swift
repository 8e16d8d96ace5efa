import EventVocabulary
import Mapping
import Timebase
import VirtualDevice

/// Sends a session's events to an `OutputSink`: the controller's devices in the daemon (uinput,
/// a pipe for `run --write-events`, printed lines for `run --print`), whichever the command line chose.
///
/// A write that fails is logged (the first failure of a run in full, repeats at debug level so a
/// broken device cannot flood the journal); the events after it are still written.
@MainActor
public final class SinkOutput: DeviceOutput {
    /// The sink written to.
    public let sink: any OutputSink
    /// The sink again when it also takes the controller's own state (the DualSense), found once.
    private let stateSink: (any ControllerStateSink)?
    private var failing = false

    /// An output writing to `sink`, which is called `label` from now on.
    public init(sink: any OutputSink, label: String) {
        self.sink = sink
        stateSink = sink as? any ControllerStateSink
        sink.label = label
    }

    public func controllerInput(_ input: ControllerInput, at time: MonotonicTime) {
        stateSink?.controllerInput(input, at: time)
    }

    public func batteryChanged(percent: Int) {
        stateSink?.batteryChanged(percent: percent)
    }

    /// Names the devices in log lines (and in printed events), e.g. the controller's address.
    public var label: String {
        get { sink.label }
        set { sink.label = newValue }
    }

    /// One line per device, as the sink describes it.
    public var summary: [String] { sink.summary }

    public func send(_ events: UnsafeBufferPointer<OutputEvent>, at time: MonotonicTime) {
        do {
            try sink.send(events, at: time)
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
    public func releaseHeld(at time: MonotonicTime) {
        do {
            try sink.releaseAll(at: time)
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
