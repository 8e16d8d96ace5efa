import Bridge
import Timebase

/// `daydream-bridge calibrate [ADDRESS]`: measure the gyro's bias through the running daemon.
enum CalibrateCommand: Subcommand {
    static let declaration = CommandDeclaration(
        name: "calibrate", operands: "[ADDRESS]",
        abstract: "Measure the gyro's bias while the controller lies still; applied from then on.",
        options: [CommandOption.controlSocket],
        discussion: """
        Put the controller down on something still: the running bridge averages
        its gyro over 2 seconds, shows the progress, and from then on takes that
        bias off every rate it aims with. A controller that moves during the
        hold keeps what it had; calibrate again. The bias is kept per controller
        in the daemon's state directory ($STATE_DIRECTORY for the system
        service, else $XDG_STATE_HOME/daydream-bridge, else
        ~/.local/state/daydream-bridge), so it applies after reconnects and
        restarts. Without ADDRESS, every connected controller is measured.
        A button bound to "gyro-calibrate" does the same from the controller.
        """,
        notes: """
        Exit status: 0 when every controller was measured and its bias stored, 1
        when one moved, disconnected or sent nothing, its bias could not be stored
        (it then applies only until the bridge stops), or no daemon answered.
        """)

    /// How long the daemon may say nothing before the command gives up: the hold and its patience.
    static let silence = TimeSpan.seconds(10)

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try scan(arguments)
        guard options.positionals.count <= 1 else { throw UsageError("calibrate takes one ADDRESS at most") }
        let paths = options.controlSocketPaths
        var failed = false
        let reply = try ControlClient.stream(.calibrate(address: options.positionals.first), paths: paths, silence: silence) { line in
            if line.contains(": failed: ") { failed = true }
            printOut(line)
        }
        guard reply.succeeded else {
            printError("Error: \(reply.message)")
            return ExitCode.failure
        }
        return failed ? ExitCode.failure : ExitCode.success
    }
}
