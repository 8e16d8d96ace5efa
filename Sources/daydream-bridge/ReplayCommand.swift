import Bridge
import BridgeConfig
import BridgeTools
import Mapping
import Recording
import Timebase
import VirtualDevice

/// `daydream-bridge replay FILE`: a recording through decode and mapping, printed or sent to
/// real virtual devices.
enum ReplayCommand: Subcommand {
    static let name = "replay"
    static let abstract = "Run a recording through the mapping; print the events or send them to uinput."
    static let usage = "replay FILE [--print | --uinput] [--fast] [--profile NAME] [--config FILE] [-v]"
    static let discussion = """
    Plays a recording made with 'record' (see the README for the format)
    through the same path as the daemon: decode, the controller model, the
    mapping engine. A 'disconnected' line releases everything, and so does the
    end of the recording, as the daemon does on exit.

    Options:
      --print          Print each event (the default): TIME DEVICE TYPE CODE VALUE,
                       e.g. '1.013500 gamepad EV_KEY BTN_SOUTH 1', the time in
                       seconds from the start of the recording.
      --uinput         Send the events to real virtual devices (needs /dev/uinput).
      --fast           Do not wait: play as fast as possible (same output).
      --profile NAME   Map with this profile (default: the config's choice for
                       the recorded address, else its default profile).
      --config FILE    Use this config instead of the one the bridge would find.
      -v, --verbose    Log debug details on standard error.

    SIGINT or SIGTERM stops the replay: everything is released first.
    Exit status: 0 when played, 1 when the recording cannot be read or the
    devices cannot be made, 2 when the config has errors, 64 for usage errors.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try OptionScanner(
            arguments, flags: ["--print", "--uinput", "--fast", "-v", "--verbose"], options: ["--profile", "--config"]
        )
        Logger.configure(verbose: options.flag("-v", "--verbose"))
        guard options.positionals.count == 1, let path = options.positionals.first else {
            throw UsageError(options.positionals.isEmpty ? "replay needs a recording FILE" : "replay takes one FILE")
        }
        if options.flag("--print") && options.flag("--uinput") {
            throw UsageError("choose one of --print and --uinput")
        }
        let recording: Recording
        do {
            recording = try RecordingParser.parse(TextFile.read(path))
        } catch let error as TextFileError {
            printError("Error: \(error)")
            return ExitCode.failure
        } catch let error as RecordingParseError {
            printError(error.describe(file: path))
            return ExitCode.failure
        }
        guard let loaded = loadCommandConfig(path: options.value("--config")) else { return ExitCode.configError }
        let profile = options.value("--profile")
        if let profile, loaded.configuration.profile(named: profile) == nil {
            throw UsageError(ConfigurationChoice.unknownProfile(profile, in: loaded))
        }
        Logger.debug("replaying \(path) (\(recording.entries.count) entries) with \(loaded.source)")
        do {
            if options.flag("--uinput") {
                let devices = try VirtualDeviceSet(
                    capabilities: loaded.configuration.capabilities, gamepadIdentity: loaded.configuration.gamepadIdentity
                )
                for line in devices.summary { Logger.info("created \(line)") }
                let output = SinkOutput(sink: devices, label: "replay")
                play(recording, loaded.configuration, profile, output, fast: options.flag("--fast"))
                output.releaseAll()
            } else {
                let output = try EventLineOutput(
                    capabilities: loaded.configuration.capabilities, gamepadIdentity: loaded.configuration.gamepadIdentity
                )
                play(recording, loaded.configuration, profile, output, fast: options.flag("--fast"))
                if output.refused > 0 { return ExitCode.failure }
            }
        } catch {
            printError("Error: \(error)")
            return ExitCode.failure
        }
        return ExitCode.success
    }

    @MainActor
    private static func play<Output: BridgeOutput>(
        _ recording: Recording, _ configuration: MappingConfiguration, _ profile: String?, _ output: Output, fast: Bool
    ) {
        let replay = Replay(recording: recording, configuration: configuration, profileName: profile, output: output)
        let pacing = RecordedPacing()
        replay.run { time in
            if fast { pacing.poll() } else { pacing.wait(until: time) }
            return !pacing.interrupted
        }
        if let signal = pacing.interruption {
            Logger.info("stopped by signal \(signal) at \(RecordingFormat.formatTime(TimeSpan(nanoseconds: replay.player.now.nanoseconds))) s; everything released")
        }
    }
}
