import DaydreamCore
import EventLoop
import Recording
import Timebase

/// A controller's feed played from a recording on the daemon's loop, in real time: `run --replay FILE`,
/// for trying a config and for testing the daemon (signals, reload, profile switches) without Bluetooth.
/// When the recording ends the controller stays connected and silent, as a controller at rest does.
/// The entries are taken one at a time, so a file is read as it plays.
@MainActor
public final class RecordingControllerSource {
    private let entries: any RecordingEntrySource
    private let reactor: Reactor
    private let failed: @MainActor (String) -> Void
    private var timer: ScheduledTimer?
    private var origin = MonotonicTime.zero
    /// The controller's feed, once started.
    public private(set) var feed: ControllerFeed?

    /// A source for `entries`, timed by `reactor`; `failed` is told why when a bad line ends them
    /// before the recording's end.
    public init(entries: any RecordingEntrySource, reactor: Reactor, failed: @escaping @MainActor (String) -> Void) {
        self.entries = entries
        self.reactor = reactor
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
            } else {
                Logger.info("end of the recording; the controller stays connected")
            }
            return
        }
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
