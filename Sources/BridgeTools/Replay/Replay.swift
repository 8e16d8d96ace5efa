import Bridge
import DaydreamCore
import Mapping
import Recording
import Timebase
import VirtualDevice

/// `replay`: a recording through its feed, decode and the mapping engine into an output,
/// on the recording's own time (see `RecordingPlayer`).
///
/// The output sees exactly what the daemon's devices would: the same `ControllerSession`.
/// A `disconnected` entry releases everything; the end of the recording releases everything too,
/// as the daemon does when it exits.
@MainActor
public final class Replay {
    /// The player that feeds the controller.
    public let player: RecordingPlayer
    /// The mapping, attached to the player's feed.
    public let session: ControllerSession

    /// A replay of `entries` mapped with `configuration`, in `profileName` when given, else the
    /// profile the configuration picks for the recording's address.
    public init(entries: any RecordingEntrySource, configuration: MappingConfiguration, profileName: String? = nil, output: any OutputSink) {
        player = RecordingPlayer(entries: entries)
        session = ControllerSession(
            address: entries.info.address, configuration: configuration, profileName: profileName,
            output: output, scheduler: player.scheduler
        )
        player.feed.attach(session)
    }

    /// A replay of a parsed recording.
    public convenience init(recording: Recording, configuration: MappingConfiguration, profileName: String? = nil, output: any OutputSink) {
        self.init(entries: RecordingEntryList(recording), configuration: configuration, profileName: profileName, output: output)
    }

    /// Plays the whole recording (up to a bad line: see `player.failure`). `wait` is called with
    /// each virtual time before it is played:
    /// sleep there for recorded speed, return at once for `--fast`; it returns false to stop early
    /// (a signal). Ends with a release of everything.
    public func run(wait: (MonotonicTime) -> Bool = { _ in true }) {
        player.start()
        while let time = player.nextTime, !player.entriesFinished {
            guard wait(time) else { break }
            player.play(upTo: time)
        }
        finish()
    }

    /// Releases everything at the current virtual time, as the daemon does on exit.
    public func finish() {
        session.stop(at: player.now)
    }
}
