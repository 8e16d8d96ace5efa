import DaydreamCore
import DaydreamProtocol
import Recording
import Timebase

/// Plays a recording into a `ControllerFeed` on virtual time: entry by entry, with the timers
/// (the mapping's deadlines, a model's long press) that fall between entries run at their own times.
///
/// Time starts at zero; an entry at offset `t` happens at `MonotonicTime(nanoseconds: t)`. The
/// caller decides how fast time goes: `replay --fast` steps at once, `replay` sleeps until each
/// `nextTime`, `monitor --replay` waits in its own loop. The controller starts connected.
@MainActor
public final class RecordingPlayer {
    /// Where the entries come from, one at a time.
    public let entries: any RecordingEntrySource
    /// The feed the entries go to, with the recording's address and device information.
    public let feed: ControllerFeed
    /// The virtual clock the consumers' timers run on.
    public let scheduler: ManualScheduler
    /// The entry to play next, taken from `entries` ahead of its time.
    private var nextEntry: RecordingEntry?

    /// A player at time zero, with `feed` made from the source's information.
    public init(entries: any RecordingEntrySource) {
        self.entries = entries
        scheduler = ManualScheduler(now: .zero)
        feed = ControllerFeed.recorded(entries.info, at: scheduler.now)
        nextEntry = entries.nextEntry()
    }

    /// A player of a parsed recording.
    public convenience init(recording: Recording) {
        self.init(entries: RecordingEntryList(recording))
    }

    /// Why the entries ended before the recording did (a bad line in a file), ready to print.
    public var failure: String? { entries.failure }

    /// Marks the controller connected: call after attaching consumers, before the first step.
    public func start() {
        feed.linkChanged(connected: true, at: scheduler.now)
    }

    /// The time of the next thing to do (an entry or a timer), or nil when the recording is over
    /// and no timer is waiting.
    public var nextTime: MonotonicTime? {
        let entryTime = nextEntry.map { MonotonicTime(nanoseconds: $0.time.nanoseconds) }
        switch (entryTime, scheduler.nextDeadline) {
        case (let entry?, let timer?): return min(entry, timer)
        case (let entry?, nil): return entry
        case (nil, let timer?): return timer
        case (nil, nil): return nil
        }
    }

    /// True when every entry has been played.
    public var entriesFinished: Bool { nextEntry == nil }

    /// The current virtual time.
    public var now: MonotonicTime { scheduler.now }

    /// Plays everything due at or before `time`: timers and entries in time order (a timer due at
    /// an entry's time runs first).
    public func play(upTo time: MonotonicTime) {
        while let entry = nextEntry {
            let entryTime = MonotonicTime(nanoseconds: entry.time.nanoseconds)
            guard entryTime <= time else { break }
            scheduler.advance(to: entryTime)
            nextEntry = entries.nextEntry()
            apply(entry.event, at: entryTime)
        }
        scheduler.advance(to: time)
    }

    /// Plays the entries and timers up to the last entry, as fast as possible.
    public func playAll() {
        while let time = nextTime, !entriesFinished {
            play(upTo: time)
        }
    }

    private func apply(_ event: RecordingEvent, at time: MonotonicTime) {
        feed.play(event, at: time)
    }
}
