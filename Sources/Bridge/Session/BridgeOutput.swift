import Mapping
import Timebase

/// Where a controller's output events go: its virtual devices in the daemon, standard output in
/// `replay --print`, an array in tests.
@MainActor
public protocol BridgeOutput: AnyObject {
    /// Writes `events` (frames that each end with one `SYN_REPORT` per device), produced at `time`.
    /// Must not allocate on the daemon's path; failures are the output's to report.
    func send(_ events: [OutputEvent], at time: MonotonicTime)
}
