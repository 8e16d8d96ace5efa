import Bridge
import EventVocabulary
import Mapping
import Timebase
import VirtualDevice

/// Keeps every event with its time: what the replay tests compare.
@MainActor
final class CollectingOutput: @MainActor OutputSink {
    /// One event and when it was sent.
    struct Entry: Hashable, Sendable {
        /// When the session sent it.
        var time: MonotonicTime
        /// The event.
        var event: OutputEvent
    }

    /// Everything sent, in order.
    private(set) var entries: [Entry] = []

    var label = ""
    var summary: [String] { ["events collected in memory"] }

    /// An empty collector.
    init() {}

    func send(_ events: UnsafeBufferPointer<OutputEvent>, at time: MonotonicTime) {
        for event in events { entries.append(Entry(time: time, event: event)) }
    }

    /// Nothing to release: the session's own release is what the tests compare.
    func releaseAll(at time: MonotonicTime) {}

    /// The events alone.
    var events: [OutputEvent] { entries.map(\.event) }
}
