import DaydreamCore
import EventLoop
import Recording
import Timebase

/// A controller's feed played from a recording on the daemon's loop, in real time: `run --replay FILE`,
/// for trying a config and for testing the daemon (signals, reload, profile switches) without Bluetooth.
/// When the recording ends the controller stays connected and silent, as a controller at rest does.
@MainActor
public final class RecordingControllerSource {
    private let recording: Recording
    private let reactor: Reactor
    private var timer: ScheduledTimer?
    private var origin = MonotonicTime.zero
    private var nextIndex = 0
    /// The controller's feed, once started.
    public private(set) var feed: ControllerFeed?

    /// A source for `recording`, timed by `reactor`.
    public init(recording: Recording, reactor: Reactor) {
        self.recording = recording
        self.reactor = reactor
    }

    /// Makes the controller's feed, hands it to `found`, connects it and starts playing.
    public func start(found: (ControllerFeed) -> Void) {
        let feed = ControllerFeed.recorded(recording.info, at: reactor.now)
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
        guard nextIndex < recording.entries.count else {
            Logger.info("end of the recording; the controller stays connected")
            return
        }
        let entry = recording.entries[nextIndex]
        timer = reactor.schedule(at: origin + entry.time) { [weak self] in
            guard let self else { return }
            self.nextIndex += 1
            self.apply(entry.event)
            self.scheduleNext()
        }
    }

    private func apply(_ event: RecordingEvent) {
        feed?.play(event, at: reactor.now)
    }
}
