import Bridge
import BridgeTools
import DaydreamCore
import EventLoop
import Recording

/// `daydream-bridge monitor`: a live view of one controller in the terminal.
enum MonitorCommand: Subcommand {
    /// The options, declared once for the scanner, the usage line and the help.
    enum Option {
        static let replay = CommandOption.value(
            "--replay", named: "FILE", help: "Show a recording (made with 'record') at its own speed instead of a live controller.")
    }

    static let declaration = CommandDeclaration(
        name: "monitor", operands: "[ADDRESS]",
        abstract: "Show a controller live: touchpad, buttons, motion, battery, packet rate.",
        options: [Option.replay, CommandOption.verbose],
        discussion: """
        Draws the touchpad as a circle with the finger's dot, the buttons (lit
        while down; the rim turns to '*' while the pad is clicked), orientation
        (yaw, pitch, roll in degrees), rotation rate (rad/s), acceleration (m/s^2),
        battery, packets per second and lost packets. Redraws in place on the
        terminal's alternate screen; works inside tmux and screen.

        Shows the first paired controller that connects, or ADDRESS. While a
        bridge runs, the controller is shown through the bridge (its control
        socket's watch stream, at most 60 packets a second) rather than taken
        from it, with the bridge's DSU server's address and clients.
        """,
        notes: """
        Keys: q quits. SIGINT, SIGTERM and SIGHUP quit too; the terminal is
        always restored.
        """)

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try scan(arguments)
        Logger.configure(verbose: options.flag(.verbose))
        guard options.positionals.count <= 1 else { throw UsageError("monitor takes at most one ADDRESS") }
        let terminal = Terminal()
        guard terminal.isTerminal else {
            printError("Error: monitor draws on a terminal, and standard input or output is not one; "
                + "use 'replay --print' or 'decode' for text output")
            return ExitCode.failure
        }
        guard let path = options.value(Option.replay) else {
            let wanted = try options.positionals.first.map(BlueZCommandContext.address)
            return try live(terminal: terminal, address: wanted)
        }
        guard let recording = openCommandRecording(path: path) else { return ExitCode.failure }
        let player = RecordingPlayer(entries: recording)
        let model = MonitorModel(feed: player.feed, source: "replay \(path)")
        let reactor = try Reactor()
        let app = try MonitorApp(model: model, terminal: terminal, reactor: reactor)
        let source = MonitorReplaySource(player: player, app: app, reactor: reactor)
        try app.start()
        source.start()
        reactor.run()
        return ExitCode.success
    }

    /// The first paired controller that connects (or `address`): through the running bridge's
    /// `watch` stream when one answers, else through BlueZ. Log lines would scribble over the
    /// screen, so the newest one is shown as the status line instead.
    @MainActor
    private static func live(terminal: Terminal, address: String?) throws -> Int32 {
        let paths = ControlSocketPath.candidatesForClient(environment: ControlSocketPath.processEnvironment())
        let reactor = try Reactor()
        if let bridged = try throughBridge(terminal: terminal, address: address, paths: paths, reactor: reactor) { return bridged }
        let model = MonitorModel(feed: nil, source: "live")
        let app = try MonitorApp(model: model, terminal: terminal, reactor: reactor)
        var managerOptions = DaydreamControllerManager.Options()
        managerOptions.makesControllerModels = false  // the monitor's model consumes the packets itself
        let manager = try DaydreamControllerManager(reactor: reactor, options: managerOptions, log: Logger.librarySink)
        manager.announceProblemsWithAdvice()
        // The log sink is global: it must not keep the model (and through it the controller and
        // the loop) alive after this view ends, so it holds the model weakly and is put back on return.
        let previousSink = Logger.sink
        defer { Logger.sink = previousSink }
        Logger.style = .terminal
        Logger.sink = { [weak model] text in
            model?.message = text.split(separator: "\n").last.map { String($0.dropFirst("daydream-bridge: ".count)) }
        }
        Logger.adoptLibraryLog()
        manager.feedConnected = { feed in
            guard model.feed == nil, address == nil || feed.address.uppercased() == address else { return }
            model.message = nil
            model.attach(feed)
        }
        manager.problemHandler = { model.message = $0.advice }
        let daemon = MonitorDaemonPoller(model: model, paths: paths, reactor: reactor)
        try app.start()
        manager.start()
        daemon.start()
        reactor.run()
        daemon.stop()
        manager.stop()
        return ExitCode.success
    }

    /// The view through a running bridge's `watch` stream (packets thinned to 60 a second); nil
    /// when no bridge answers.
    @MainActor
    private static func throughBridge(terminal: Terminal, address: String?, paths: [String], reactor: Reactor) throws -> Int32? {
        let model = MonitorModel(feed: nil, source: "through the bridge")
        let controllers = WatchedControllers()
        controllers.feedAdded = { feed in
            guard model.feed == nil, address == nil || feed.address.uppercased() == address else { return }
            model.attach(feed)
        }
        let watch = ControlWatchClient(paths: paths, reactor: reactor) { line in
            controllers.take(line, at: reactor.now)
        } ended: { reason in
            controllers.endAll(at: reactor.now)
            model.message = "the bridge stopped" + (reason.map { ": \($0)" } ?? "")
        }
        guard let watch else { return nil }
        defer { watch.stop() }
        let app = try MonitorApp(model: model, terminal: terminal, reactor: reactor)
        let daemon = MonitorDaemonPoller(model: model, paths: [watch.path], reactor: reactor)
        try app.start()
        daemon.start()
        reactor.run()
        daemon.stop()
        return ExitCode.success
    }
}
