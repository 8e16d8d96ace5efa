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
    /// The options, declared once for the scanner, the usage line and the help.
    enum Option {
        static let printEvents = CommandOption.flag(
            "--print",
            help: "Print each event (the default): TIME DEVICE TYPE CODE VALUE, e.g. '1.013500 gamepad EV_KEY BTN_SOUTH 1', "
                + "the time in seconds from the start of the recording.",
            exclusiveGroup: "output")
        static let uinput = CommandOption.flag(
            "--uinput", help: "Send the events to real virtual devices (needs /dev/uinput).", exclusiveGroup: "output")
        static let fast = CommandOption.flag("--fast", help: "Do not wait: play as fast as possible (same output).")
        static let profile = CommandOption.value(
            "--profile", named: "NAME",
            help: "Map with this profile (default: the config's choice for the recorded address, else its default profile).")
        static let config = CommandOption.value("--config", named: "FILE", help: "Use this config instead of the one the bridge would find.")
        static let verbose = CommandOption.flag("-v", "--verbose", help: "Log debug details on standard error.")
    }

    static let declaration = CommandDeclaration(
        name: "replay", operands: "FILE",
        abstract: "Run a recording through the mapping; print the events or send them to uinput.",
        options: [Option.printEvents, Option.uinput, Option.fast, Option.profile, Option.config, Option.verbose],
        discussion: """
        Plays a recording made with 'record' (doc/recordings.md has the format)
        through the same path as the daemon: decode and the mapping engine, in
        the daemon's controller session. A 'disconnected' line releases
        everything, and so does the end of the recording, as the daemon does on
        exit. The file is read as it plays, whatever its size; a bad line stops
        the replay there.
        """,
        notes: """
        SIGINT or SIGTERM stops the replay: everything is released first.
        Exit status: 0 when played, 1 when the recording cannot be read (or has a
        bad line) or the devices cannot be made, 2 when the config has errors,
        64 for usage errors.
        """)

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try scan(arguments)
        Logger.configure(verbose: options.flag(Option.verbose))
        guard options.positionals.count == 1, let path = options.positionals.first else {
            throw UsageError(options.positionals.isEmpty ? "replay needs a recording FILE" : "replay takes one FILE")
        }
        guard let recording = openCommandRecording(path: path) else { return ExitCode.failure }
        guard let loaded = loadCommandConfig(path: options.value(Option.config)) else { return ExitCode.configError }
        let profile = options.value(Option.profile)
        if let profile, loaded.configuration.profile(named: profile) == nil {
            throw UsageError(ConfigurationChoice.unknownProfile(profile, in: loaded))
        }
        Logger.debug("replaying \(path) with \(loaded.source)")
        if options.flag(Option.uinput) {
            let devices = try VirtualDeviceSet(
                capabilities: loaded.configuration.capabilities, gamepadIdentity: loaded.configuration.gamepadIdentity
            )
            for line in devices.summary { Logger.info("created \(line)") }
            devices.label = "replay"
            play(recording, loaded.configuration, profile, devices, fast: options.flag(Option.fast))
            do {
                try devices.releaseAll(at: .zero)
            } catch {
                Logger.error("replay: \(error)")
            }
            if let failure = recording.failure {
                printError(failure)
                return ExitCode.failure
            }
        } else {
            let printer = try EventLineSink(
                capabilities: loaded.configuration.capabilities, gamepadIdentity: loaded.configuration.gamepadIdentity
            )
            play(recording, loaded.configuration, profile, printer, fast: options.flag(Option.fast))
            if let failure = recording.failure {
                printError(failure)
                return ExitCode.failure
            }
            if printer.refused > 0 { return ExitCode.failure }
        }
        return ExitCode.success
    }

    @MainActor
    private static func play(
        _ recording: RecordingFileReader, _ configuration: MappingConfiguration, _ profile: String?, _ output: any OutputSink, fast: Bool
    ) {
        let replay = Replay(entries: recording, configuration: configuration, profileName: profile, output: output)
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
