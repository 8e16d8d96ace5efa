import Bridge
import EventLoop
import Recording

/// `daydream-bridge monitor`: a live view of one controller in the terminal.
enum MonitorCommand: Subcommand {
    static let name = "monitor"
    static let abstract = "Show a controller live: touchpad, buttons, motion, battery, packet rate."
    static let usage = "monitor [ADDRESS] [--replay FILE]"
    static let discussion = """
    Draws the touchpad as a circle with the finger's dot, the buttons (lit
    while down; the rim turns to '*' while the pad is clicked), orientation
    (yaw, pitch, roll in degrees), rotation rate (rad/s), acceleration (m/s^2),
    battery, packets per second and lost packets. Redraws in place on the
    terminal's alternate screen; works inside tmux and screen.

    ADDRESS chooses a controller when several are connected.

    Options:
      --replay FILE  Show a recording (made with 'record') at its own speed
                     instead of a live controller.

    Keys: q quits. SIGINT, SIGTERM and SIGHUP quit too; the terminal is
    always restored.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try OptionScanner(arguments, flags: ["-v", "--verbose"], options: ["--replay"])
        Logger.configure(verbose: options.flag("-v", "--verbose"))
        guard options.positionals.count <= 1 else { throw UsageError("monitor takes at most one ADDRESS") }
        let terminal = Terminal()
        guard terminal.isTerminal else {
            printError("Error: monitor draws on a terminal, and standard input or output is not one; "
                + "use 'replay --print' or 'decode' for text output")
            return ExitCode.failure
        }
        guard let path = options.value("--replay") else {
            printError("Error: live monitoring needs the BlueZ connection, which this build does not have yet; "
                + "use 'monitor --replay FILE'")
            return ExitCode.failure
        }
        let recording: Recording
        do {
            recording = try RecordingParser.parse(TextFile.read(path))
        } catch let error as RecordingParseError {
            printError(error.describe(file: path))
            return ExitCode.failure
        } catch {
            printError("Error: \(error)")
            return ExitCode.failure
        }
        let player = RecordingPlayer(recording: recording)
        let model = MonitorModel(controller: player.controller, source: "replay \(path)")
        do {
            let reactor = try Reactor()
            let app = try MonitorApp(model: model, terminal: terminal, reactor: reactor)
            let source = MonitorReplaySource(player: player, app: app, reactor: reactor)
            try app.start()
            source.start()
            reactor.run()
        } catch {
            printError("Error: \(error)")
            return ExitCode.failure
        }
        return ExitCode.success
    }
}
