#if canImport(Glibc)
import Glibc
#endif
import BlueZ
import Bridge
import BridgeTools
import DaydreamCore
import EventLoop
import Recording
import Timebase

/// `daydream-bridge record FILE`: a connected controller's packets, timestamped, to a file.
enum RecordCommand: Subcommand {
    /// The options, declared once for the scanner, the usage line and the help.
    enum Option {
        static let duration = CommandOption.value("--duration", named: "SECONDS", help: "Stop after this long (from the first packet on).")
    }

    static let declaration = CommandDeclaration(
        name: "record", operands: "FILE [ADDRESS]",
        abstract: "Record a controller's packets and device information to a file.",
        options: [Option.duration, CommandOption.verbose],
        discussion: """
        Waits for a paired controller to connect (ADDRESS, or the first one), then
        writes its device information and every packet with the time it arrived,
        plus link drops and battery readings, until SIGINT (Ctrl-C), SIGTERM or
        --duration. FILE '-' writes to standard output. Each line is written as it
        happens, so an interrupted recording keeps everything before the interruption.

        The format is versioned text, described in doc/recordings.md
        ('# daydream-bridge recording v1', then 'key value' information lines,
        then 'SECONDS HEX' packet lines). Play it back with 'replay' or
        'monitor --replay'.

        Do not run it beside 'run' for the same controller: each takes its packets.
        """)

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try scan(arguments)
        Logger.configure(verbose: options.flag(.verbose))
        Logger.adoptLibraryLog()
        guard let path = options.positionals.first else { throw UsageError("record needs a FILE") }
        guard options.positionals.count <= 2 else { throw UsageError("record takes a FILE and at most one ADDRESS") }
        let wanted = try options.positionals.dropFirst().first.map(BlueZCommandContext.address)
        let duration = try BlueZCommandContext.timeout(options.value(Option.duration), default: nil)
        let context = try BlueZCommandContext()
        let writer = try RecordingWriter(path: path)
        var managerOptions = DaydreamControllerManager.Options()
        managerOptions.makesControllerModels = false  // the writer consumes the packets itself
        let manager = DaydreamControllerManager(
            reactor: context.reactor, connection: try context.connect(), options: managerOptions, log: Logger.librarySink)
        manager.announceProblemsWithAdvice()
        var recorded: ControllerFeed?
        var stopTimer: ScheduledTimer?
        // unowned: the manager keeps this closure, so a strong capture would be a cycle that leaks.
        manager.feedConnected = { [unowned manager] feed in
            guard recorded == nil, wanted == nil || feed.address.uppercased() == wanted else { return }
            recorded = feed
            let name = manager.client.cache.device(address: feed.address)?.name
            writer.follow(feed, name: name, source: "\(CommandLineTool.programName) \(CommandLineTool.version)",
                          at: context.reactor.now)
            Logger.notice("recording \(feed.address) to \(path); Ctrl-C stops")
            if let duration {
                stopTimer = context.reactor.schedule(after: duration) { context.reactor.stop() }
            }
        }
        manager.start()
        Logger.info(wanted.map { "waiting for \($0) to connect (press its home button)" }
            ?? "waiting for a paired controller to connect (press its home button)")
        context.run(until: { false }, timeout: nil)
        stopTimer?.cancel()
        manager.stop()
        recorded?.detach(writer)
        if let failure = writer.failure {
            printError("Error: writing \(path) failed: \(failure)")
            return ExitCode.failure
        }
        guard recorded != nil else {
            printError("Error: no controller connected; nothing recorded")
            return ExitCode.failure
        }
        Logger.notice("recorded \(writer.packets) packets over \(RecordingFormat.formatTime(writer.duration)) s to \(path)")
        return ExitCode.success
    }
}
