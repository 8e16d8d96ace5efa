#if canImport(Glibc)
import Glibc
#endif
import BlueZ
import Bridge
import BridgeConfig
import DSU
import DSUServer
import DaydreamCore
import Descriptors
import EventLoop
import Mapping
import Recording
import Timebase
import VirtualDevice

/// `daydream-bridge run` (the default): the daemon.
enum RunCommand: Subcommand {
    /// The options, declared once for the scanner, the usage line and the help.
    enum Option {
        static let pair = CommandOption.flag("--pair", help: "Pair a controller first, as 'pair' does (hold its home button).")
        static let config = CommandOption.value(
            "--config", named: "FILE",
            help: "Use this config instead of the lookup ($XDG_CONFIG_HOME/daydream-bridge/config.toml, then "
                + "/etc/daydream-bridge/config.toml, then the built-in default).")
        static let profile = CommandOption.value("--profile", named: "NAME", help: "Start every controller in this profile.")
        static let socket = CommandOption.value(
            "--socket", named: "PATH",
            help: "The control socket for 'profile' and 'list' (default: $RUNTIME_DIRECTORY/control under the system unit, "
                + "else $XDG_RUNTIME_DIR/daydream-bridge/control, else /run/daydream-bridge/control); 'none' for no socket.")
        static let replay = CommandOption.value("--replay", named: "FILE", help: "Take the controller from a recording instead of Bluetooth.")
        static let printEvents = CommandOption.flag(
            "--print", help: "Print the events on standard output instead of creating devices (TIME ADDRESS DEVICE TYPE CODE VALUE).",
            exclusiveGroup: "output")
        static let writeEvents = CommandOption.value(
            "--write-events", named: "FILE",
            help: "For measuring the bridge ('make bench'), not for games: write each device frame to FILE ('-': standard "
                + "output) as raw struct input_event, one write(2) per frame, checked as the devices would check it, instead "
                + "of creating devices: the uinput path without /dev/uinput.",
            exclusiveGroup: "output")
        static let bus = CommandOption.value(
            "--bus", named: "session|system|none",
            help: "Offer the D-Bus API (org.daydream_bridge: controllers, battery, profiles) on this bus (default: session "
                + "when DBUS_SESSION_BUS_ADDRESS is set, else none).")
        static let dsu = CommandOption.optionalValue(
            "--dsu", named: "ADDR:PORT",
            help: "Serve the controllers' motion, buttons and touchpad to emulators (Dolphin, Cemu) over the DSU "
                + "(cemuhook) protocol on ADDR:PORT (default: [dsu] listen in the config, else 127.0.0.1:26760).")
    }

    static let declaration = CommandDeclaration(
        name: "run",
        abstract: "Run the bridge: paired controllers become virtual gamepads, mice and keyboards (default).",
        options: [
            Option.pair, Option.config, Option.profile, CommandOption.verbose, Option.socket, Option.replay, Option.printEvents,
            Option.writeEvents, Option.dsu, Option.bus,
        ],
        discussion: """
        Connects to the paired controllers and gives each its own virtual devices
        and mapping profile. The first set of devices is made at start, so games
        see a pad before a controller connects; the first controller takes it, and
        each further controller gets its own set when first seen. Devices are kept
        until exit, across Bluetooth drops.
        """,
        notes: """
        Signals: SIGTERM and SIGINT release everything, destroy the devices and
        exit 0; SIGHUP reloads the config (as does saving the config file); SIGUSR1
        switches every controller to the next profile.

        Logging goes to standard error: plain on a terminal, with <N> priority
        prefixes for journald otherwise (or when JOURNAL_STREAM is set).

        Exit status: 0 after a signal, 1 when the devices or Bluetooth cannot be
        used (with a line saying what to do), 2 when the config has errors,
        64 for usage errors.
        """)

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try scan(arguments)
        Logger.configure(verbose: options.flag(.verbose))
        Logger.adoptLibraryLog()
        guard options.positionals.isEmpty else { throw UsageError("unexpected argument '\(options.positionals[0])'") }
        if options.flag(Option.pair), options.value(Option.replay) != nil {
            throw UsageError("--pair and --replay cannot be used together")
        }
        // The loop first: its signalfd needs the signals blocked before any other thread starts.
        let reactor = try Reactor()
        Reactor.ignoreBrokenPipe()
        let loaded: LoadedConfig
        do {
            loaded = try ConfigLoader.load(ConfigurationChoice.source(path: options.value(Option.config)))
        } catch {
            for line in error.lines { Logger.error(line) }
            return ExitCode.configError
        }
        let bus = try busChoice(options.value(Option.bus))
        let dsuAddress = try DSUStartup.address(option: options.value(Option.dsu), configuration: loaded.dsu)
        let profile = options.value(Option.profile)
        if let profile, loaded.configuration.profile(named: profile) == nil {
            throw UsageError(ConfigurationChoice.unknownProfile(profile, in: loaded))
        }
        let recording: RecordingFileReader?
        if let path = options.value(Option.replay) {
            do {
                recording = try RecordingFileReader(path: path)
            } catch {
                Logger.error("\(error)")
                return ExitCode.failure
            }
        } else {
            recording = nil
        }
        let socket = options.value(Option.socket) ?? ControlSocketPath.forDaemon(environment: ControlSocketPath.processEnvironment())
        let controlSocket = socket == "none" ? nil : socket
        let makeSink: SinkFactory
        // Standard output is not ours to close; a file opened here is, once the daemon is done.
        var eventsFile: FileDescriptor?
        defer { try? eventsFile.take()?.close() }
        if options.flag(Option.printEvents) {
            let origin = reactor.now
            makeSink = { configuration throws(VirtualDeviceError) in
                ControllerDevices(sink: try EventLineSink(
                    capabilities: configuration.capabilities, gamepadIdentity: configuration.gamepadIdentity, origin: origin))
            }
        } else if let path = options.value(Option.writeEvents) {
            let descriptor = path == "-" ? STDOUT_FILENO : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                Logger.error("cannot write \(path): \(String(cString: strerror(errno)))")
                return ExitCode.failure
            }
            if descriptor != STDOUT_FILENO { eventsFile = FileDescriptor(owning: descriptor) }
            makeSink = { configuration throws(VirtualDeviceError) in
                ControllerDevices(sink: try VirtualDeviceSet(
                    capabilities: configuration.capabilities, gamepadIdentity: configuration.gamepadIdentity, fileDescriptor: descriptor))
            }
        } else {
            makeSink = { configuration throws(VirtualDeviceError) in
                try GamepadSinkFactory.makeDevices(configuration, reactor: reactor)
            }
        }
        do {
            let daemon = try BridgeDaemon(loaded: loaded, profile: profile, reactor: reactor) { configuration, _ throws(VirtualDeviceError) in
                try makeSink(configuration)
            }
            daemon.biasStore = GyroBiasStore.forDaemon(environment: GyroBiasStore.processEnvironment())
            let dsu = dsuAddress.flatMap { DSUStartup.start(on: $0, reactor: reactor) }
            daemon.headTracker = loaded.openTrack.flatMap(OpenTrackStartup.start)
            return try serve(
                daemon, dsu: dsu, bus: bus, reactor: reactor, controlSocket: controlSocket, recording: recording,
                pair: options.flag(Option.pair))
        } catch let error as VirtualDeviceError {
            Logger.error("\(error)")
            return ExitCode.failure
        }
    }

    /// `--bus`'s choice, or the default for this environment.
    private static func busChoice(_ option: String?) throws -> BusChoice {
        guard let option else { return BusChoice.defaultChoice(environment: BusChoice.processEnvironment()) }
        guard let choice = BusChoice(rawValue: option) else {
            throw UsageError("--bus takes session, system or none, not '\(option)'")
        }
        return choice
    }

    /// The D-Bus API on `bus`, started, following the daemon's changes; nil for `none`.
    @MainActor
    private static func startBusAPI(_ bus: BusChoice, for daemon: BridgeDaemon, reactor: Reactor) -> BridgeBusService? {
        guard bus != .none else { return nil }
        guard let address = bus.address(environment: BusChoice.processEnvironment()) else {
            Logger.warning("no D-Bus API: there is no session bus (neither DBUS_SESSION_BUS_ADDRESS nor XDG_RUNTIME_DIR is set)")
            return nil
        }
        let api = BridgeBusService(bus: bus, address: address, backend: daemon, version: CommandLineTool.version, reactor: reactor)
        api.start()
        return api
    }

    /// Makes one controller's devices for a configuration: uinput (a DualSense beside them), a
    /// pipe or printed lines, as the command line chose.
    private typealias SinkFactory = (MappingConfiguration) throws(VirtualDeviceError) -> ControllerDevices

    @MainActor
    private static func serve(
        _ daemon: BridgeDaemon, dsu: DSUServer?, bus: BusChoice, reactor: Reactor, controlSocket: String?,
        recording: RecordingFileReader?, pair: Bool
    ) throws -> Int32 {
        do {
            daemon.dsuServer = dsu
            try daemon.start(controlSocket: controlSocket)
        } catch {
            Logger.error("cannot start the event loop's signal handling: \(error)")
            return ExitCode.failure
        }
        let api = startBusAPI(bus, for: daemon, reactor: reactor)
        defer { api?.stop() }
        // Each controller's feed goes to its mapping session and, when DSU is on, to its DSU slot;
        // with [opentrack], the one it follows to the head tracker output too.
        let add: @MainActor (ControllerFeed) -> Void = { feed in
            daemon.add(feed)
            dsu?.attach(feed)
            daemon.headTracker?.offer(feed)
        }
        if let recording {
            // A bad line further on stops the daemon: what follows it cannot be played.
            var failed = false
            let source = RecordingControllerSource(entries: recording, reactor: reactor) { failure in
                Logger.error("\(failure)\nstopping: the recording cannot be played past its bad line")
                failed = true
                daemon.shutdown()
            }
            source.start { add($0) }
            reactor.run()
            source.stop()
            return failed ? ExitCode.failure : ExitCode.success
        }
        let bluetooth: BluetoothControllerSource
        do {
            bluetooth = try BluetoothControllerSource(reactor: reactor, pairFirst: pair)
        } catch {
            Logger.error("cannot reach the D-Bus system bus (\(error.message)): is dbus running?")
            daemon.shutdown()
            return ExitCode.failure
        }
        daemon.bluetooth = bluetooth
        bluetooth.start(found: { add($0) }, problem: { daemon.report(problem: $0) })
        reactor.run()
        bluetooth.stop()
        return ExitCode.success
    }
}
