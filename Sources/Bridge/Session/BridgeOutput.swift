import EventVocabulary
import Mapping
import Timebase

/// Where a controller's output events go: its virtual devices in the daemon, standard output in
/// `replay --print`, an array in tests.
@MainActor
public protocol BridgeOutput: AnyObject {
    /// Writes `events` (frames that each end with one `SYN_REPORT` per device), produced at `time`.
    /// Must not allocate on the daemon's path; failures are the output's to report. The events
    /// are valid only during the call (see `OutputBuffer.withEvents`).
    func send(_ events: UnsafeBufferPointer<OutputEvent>, at time: MonotonicTime)

    /// The controller's state from the packet received at `time`, after its events were sent:
    /// for outputs that carry it besides the mapping (the DualSense's motion and touchpad).
    func controllerInput(_ input: ControllerInput, at time: MonotonicTime)

    /// The controller's battery reading, in percent.
    func batteryChanged(percent: Int)
}

extension BridgeOutput {
    /// Most outputs carry only the mapping's events.
    public func controllerInput(_ input: ControllerInput, at time: MonotonicTime) {}

    public func batteryChanged(percent: Int) {}
}
