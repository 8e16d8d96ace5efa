import Bridge

/// `daydream-bridge profile NAME`: switch the running daemon's profile.
enum ProfileCommand: Subcommand {
    /// The options, declared once for the scanner, the usage line and the help.
    enum Option {
        static let next = CommandOption.flag(
            "--next", help: "Switch to the next profile in the config's order (as SIGUSR1 to the daemon does).", listedInUsage: false)
        static let controller = CommandOption.value("--controller", named: "ADDRESS", help: "Switch only this controller.")
    }

    static let declaration = CommandDeclaration(
        name: "profile", operands: "[NAME [-- COMMAND...] | --next]",
        abstract: "Switch the running bridge's profile, or show the active ones.",
        options: [Option.next, Option.controller, CommandOption.controlSocket],
        discussion: """
        With NAME, switches every controller to that profile; controllers that
        connect later start in it too. Every key and button held is released
        first. With neither NAME nor --next, prints each controller's address,
        profile and link state.

        With -- COMMAND..., a launch wrapper for any desktop: switches to NAME,
        runs COMMAND, and when it exits switches back to the profile from
        before, passing its exit status on (Steam's launch options:
        daydream-bridge profile shooter -- %command%). Signals that would stop
        the wrapper go to COMMAND instead.
        """,
        notes: """
        Exit status: 0 when done, 1 when no daemon answers or it refused
        (for example an unknown profile; the message lists the profiles).
        With a COMMAND: the command's status (128 + N when signal N killed it,
        127 when it could not be started).
        """)

    static func run(_ arguments: [String]) throws -> Int32 {
        if let separator = arguments.firstIndex(of: "--") {
            return try launch(Array(arguments[..<separator]), command: Array(arguments[(separator + 1)...]))
        }
        let options = try scan(arguments)
        guard options.positionals.count <= 1 else { throw UsageError("profile takes one NAME") }
        let address = options.value(Option.controller)
        let request: ControlRequest
        switch (options.positionals.first, options.flag(Option.next)) {
        case (let name?, false): request = .profile(name: name, address: address)
        case (nil, true): request = .nextProfile(address: address)
        case (nil, false): request = .status
        case (_?, true): throw UsageError("give a profile NAME or --next, not both")
        }
        guard let reply = send(request, paths: options.controlSocketPaths) else { return ExitCode.failure }
        for line in reply.details { printOut(line) }
        return ExitCode.success
    }

    /// `profile NAME -- COMMAND...`: switch, run, switch back, pass the status on.
    private static func launch(_ arguments: [String], command: [String]) throws -> Int32 {
        let options = try scan(arguments)
        guard options.positionals.count == 1, let name = options.positionals.first else {
            throw UsageError("profile NAME -- COMMAND... takes one NAME")
        }
        guard !command.isEmpty else { throw UsageError("give a COMMAND after --") }
        guard !options.flag(Option.next), options.value(Option.controller) == nil else {
            throw UsageError("--next and --controller cannot be used with a COMMAND")
        }
        let paths = options.controlSocketPaths
        // The profile to come back to; without a daemon, the command runs anyway.
        let previous = send(.activeProfile, paths: paths)?.details.first
        if previous != nil { _ = send(.profile(name: name, address: nil), paths: paths) }
        let status = LaunchedCommand.run(command)
        if let previous, !previous.isEmpty {
            _ = send(.profile(name: previous, address: nil), paths: paths)
        }
        return status
    }

    /// The daemon's answer; nil, with the reason printed, when none answers or it refused.
    private static func send(_ request: ControlRequest, paths: [String]) -> ControlReply? {
        ControlRequestSender.send(request, paths: paths)
    }
}
