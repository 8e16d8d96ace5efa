import EventLoop
import Timebase

/// Feeds a monitor from a recording at recorded speed, on the event loop's timers.
@MainActor
public final class MonitorReplaySource {
    private let player: RecordingPlayer
    private let app: MonitorApp
    private let reactor: Reactor
    private var origin = MonotonicTime.zero
    private var timer: ScheduledTimer?

    /// Plays `player` into `app`'s model (whose controller must be the player's).
    public init(player: RecordingPlayer, app: MonitorApp, reactor: Reactor) {
        self.player = player
        self.app = app
        self.reactor = reactor
        // Weak: the player's feed holds the model, and the model holds its clock.
        app.model.clock = { [weak player] in player?.now ?? .zero }
    }

    /// Starts playing now.
    public func start() {
        origin = reactor.now
        player.start()
        scheduleNext()
    }

    private func scheduleNext() {
        guard let time = player.nextTime, !player.entriesFinished else {
            app.model.message = player.failure.map { "the recording stops at a bad line: \($0)" } ?? "end of the recording"
            app.redraw()
            return
        }
        timer = reactor.schedule(at: origin + TimeSpan(nanoseconds: time.nanoseconds)) { [weak self] in
            guard let self else { return }
            self.player.play(upTo: time)
            self.scheduleNext()
        }
    }
}
