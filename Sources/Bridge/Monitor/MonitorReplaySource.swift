import Dispatch
import Timebase

/// Feeds a monitor from a recording at recorded speed, on the main queue.
@MainActor
public final class MonitorReplaySource {
    private let player: RecordingPlayer
    private let app: MonitorApp
    private let origin = MonotonicTime.now()

    /// Plays `player` into `app`'s model (whose controller must be the player's).
    public init(player: RecordingPlayer, app: MonitorApp) {
        self.player = player
        self.app = app
        app.model.clock = { [player] in player.now }
    }

    /// Starts playing.
    public func start() {
        player.start()
        scheduleNext()
    }

    private func scheduleNext() {
        guard let time = player.nextTime, !player.entriesFinished else {
            app.model.message = "end of the recording"
            app.redraw()
            return
        }
        let delay = max(0, (origin + TimeSpan(nanoseconds: time.nanoseconds) - MonotonicTime.now()).nanoseconds)
        DispatchQueue.main.asyncAfter(deadline: .now() + .nanoseconds(Int(delay))) {
            MainActor.assumeIsolated {
                self.player.play(upTo: time)
                self.app.setNeedsRedraw()
                self.scheduleNext()
            }
        }
    }
}
