import Bridge
import EventVocabulary
import Mapping
import Timebase

/// Keeps every event with its time: what the replay tests compare.
@MainActor
final class CollectingOutput: BridgeOutput {
    /// One event and when it was sent.
    struct Entry: Hashable, Sendable {
        /// When the session sent it.
        var time: MonotonicTime
        /// The event.
        var event: OutputEvent
    }

    /// Everything sent, in order.
    private(set) var entries: [Entry] = []

    /// An empty collector.
    init() {}

    func send(_ events: UnsafeBufferPointer<OutputEvent>, at time: MonotonicTime) {
        for event in events { entries.append(Entry(time: time, event: event)) }
    }

    /// The events alone.
    var events: [OutputEvent] { entries.map(\.event) }
}
