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

/// Keeps every event with its time: the recording sink of the tests.
@MainActor
public final class CollectingOutput: BridgeOutput {
    /// One event and when it was sent.
    public struct Entry: Hashable, Sendable {
        /// When the session sent it.
        public var time: MonotonicTime
        /// The event.
        public var event: OutputEvent
    }

    /// Everything sent, in order.
    public private(set) var entries: [Entry] = []

    /// An empty collector.
    public init() {}

    public func send(_ events: [OutputEvent], at time: MonotonicTime) {
        for event in events { entries.append(Entry(time: time, event: event)) }
    }

    /// The events alone.
    public var events: [OutputEvent] { entries.map(\.event) }

    /// Forgets what was collected.
    public func removeAll() { entries.removeAll() }
}
