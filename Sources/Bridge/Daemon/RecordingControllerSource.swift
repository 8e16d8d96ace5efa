import DaydreamCore
import EventLoop
import Recording
import Timebase

/// A controller's feed played from a recording on the daemon's loop, in real time: `run --replay FILE`,
/// for trying a config and for testing the daemon (signals, reload, profile switches) without Bluetooth.
/// When the recording ends the controller stays connected and silent, as a controller at rest does,
/// unless `repeating` gives the recording again (`ui --replay` plays it round and round). The
/// entries are taken one at a time, so a file is read as it plays.
@MainActor
public final class RecordingControllerSource {
    private var entries: any RecordingEntrySource
    private let reactor: Reactor
    private let failed: @MainActor (String) -> Void
    /// Gives the recording from its start again at its end; nil plays it once.
    private let repeating: (@MainActor () -> (any RecordingEntrySource)?)?
    private var timer: ScheduledTimer?
    private var origin = MonotonicTime.zero
    /// The controller's feed, once started.
    public private(set) var feed: ControllerFeed?

    /// A source for `entries`, timed by `reactor`; `failed` is told why when a bad line ends them
    /// before the recording's end. With `repeating`, the recording it gives starts over, a
    /// packet period after the last entry, each time one ends.
    public init(
        entries: any RecordingEntrySource, reactor: Reactor,
        repeating: (@MainActor () -> (any RecordingEntrySource)?)? = nil,
        failed: @escaping @MainActor (String) -> Void
    ) {
        self.entries = entries
        self.reactor = reactor
        self.repeating = repeating
        self.failed = failed
    }

    /// Makes the controller's feed, hands it to `found`, connects it and starts playing.
    public func start(found: (ControllerFeed) -> Void) {
        let feed = ControllerFeed.recorded(entries.info, at: reactor.now)
        self.feed = feed
        found(feed)
        feed.linkChanged(connected: true, at: reactor.now)
        origin = reactor.now
        scheduleNext()
    }

    /// Stops playing.
    public func stop() {
        timer?.cancel()
        timer = nil
    }

    private func scheduleNext() {
        guard let entry = entries.nextEntry() else {
            if let failure = entries.failure {
                failed(failure)
            } else if let again = repeating?(), let first = again.nextEntry() {
                entries = again
                origin = lastTime + TimeSpan(nanoseconds: Self.restartGap.nanoseconds - first.time.nanoseconds)
                // A recording that ends with its disconnect starts over connected.
                feed?.linkChanged(connected: true, at: reactor.now)
                schedule(first)
            } else {
                Logger.info("end of the recording; the controller stays connected")
            }
            return
        }
        schedule(entry)
    }

    /// The time the last entry played at, on the loop's clock.
    private var lastTime = MonotonicTime.zero
    /// Between the end of a recording and its start again: a packet period.
    static let restartGap = TimeSpan.milliseconds(20)

    private func schedule(_ entry: RecordingEntry) {
        lastTime = origin + entry.time
        timer = reactor.schedule(at: origin + entry.time) { [weak self] in
            guard let self else { return }
            self.apply(entry.event)
            self.scheduleNext()
        }
    }

    private func apply(_ event: RecordingEvent) {
        feed?.play(event, at: reactor.now)
    }
}
