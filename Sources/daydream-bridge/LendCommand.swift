import Bridge

/// `daydream-bridge lend [ADDRESS] [-- COMMAND...]`: lend the running bridge's controllers to
/// another program (Monado), or lend them while a command runs.
enum LendCommand: Subcommand {
    static let declaration = CommandDeclaration(
        name: "lend", operands: "[ADDRESS] [-- COMMAND...]",
        abstract: "Lend the running bridge's controller to another program (Monado).",
        options: [CommandOption.controlSocket],
        discussion: """
        Lends every connected controller (or the one at ADDRESS) to another
        program that reads it from BlueZ, such as Monado's OpenXR service:
        every key and button held is released, the bridge lets go of the
        controller's input notifications and keeps its connection and bond,
        which the other program cannot make. The bridge takes it back by
        itself when that program lets go, or on 'daydream-bridge reclaim'. A
        controller that reconnects while lent stays lent.

        With -- COMMAND..., lends, runs COMMAND, and takes the controller back
        when it exits, passing its exit status on (daydream-bridge lend --
        monado-service). Signals that would stop the wrapper go to COMMAND.
        """,
        notes: """
        Exit status: 0 when done, 1 when no daemon answers or it refused (no
        such controller, none connected, lent already). With a COMMAND: the
        command's status; it runs even when nothing could be lent.
        """)

    static func run(_ arguments: [String]) throws -> Int32 {
        if let separator = arguments.firstIndex(of: "--") {
            return try launch(Array(arguments[..<separator]), command: Array(arguments[(separator + 1)...]))
        }
        let options = try scan(arguments)
        guard options.positionals.count <= 1 else { throw UsageError("lend takes at most one ADDRESS") }
        guard let reply = ControlRequestSender.send(.lend(address: options.positionals.first), paths: options.controlSocketPaths) else {
            return ExitCode.failure
        }
        for line in reply.details { printOut(line) }
        return ExitCode.success
    }

    /// `lend [ADDRESS] -- COMMAND...`: lend, run, take back, pass the status on.
    private static func launch(_ arguments: [String], command: [String]) throws -> Int32 {
        let options = try scan(arguments)
        guard options.positionals.count <= 1 else { throw UsageError("lend takes at most one ADDRESS") }
        guard !command.isEmpty else { throw UsageError("give a COMMAND after --") }
        let address = options.positionals.first
        let paths = options.controlSocketPaths
        let lent = ControlRequestSender.send(.lend(address: address), paths: paths) != nil
        let status = LaunchedCommand.run(command)
        if lent { _ = ControlRequestSender.send(.reclaim(address: address), paths: paths) }
        return status
    }
}
