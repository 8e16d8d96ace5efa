import Bridge

/// `daydream-bridge profile NAME`: switch the running daemon's profile.
enum ProfileCommand: Subcommand {
    static let name = "profile"
    static let abstract = "Switch the running bridge's profile, or show the active ones."
    static let operands = "[NAME | --next]"
    /// The options, declared once for the scanner, the usage line and the help.
    enum Option {
        static let next = CommandOption.flag(
            "--next", help: "Switch to the next profile in the config's order (as SIGUSR1 to the daemon does).", listedInUsage: false)
        static let controller = CommandOption.value("--controller", named: "ADDRESS", help: "Switch only this controller.")
        static let socket = CommandOption.value(
            "--socket", named: "PATH",
            help: "The daemon's control socket (default: $XDG_RUNTIME_DIR/daydream-bridge/control for a daemon started by "
                + "the user, then /run/daydream-bridge/control for the system service).")
    }

    static let options = [Option.next, Option.controller, Option.socket]
    static let discussion = """
    With NAME, switches every controller to that profile; controllers that
    connect later start in it too. Every key and button held is released
    first. With neither NAME nor --next, prints each controller's address,
    profile and link state.
    """
    static let notes = """
    Exit status: 0 when done, 1 when no daemon answers or it refused
    (for example an unknown profile; the message lists the profiles).
    """

    static func run(_ arguments: [String]) throws -> Int32 {
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
        let paths = options.value(Option.socket).map { [$0] }
            ?? ControlSocketPath.candidatesForClient(environment: ControlSocketPath.processEnvironment())
        let reply: ControlReply
        do {
            reply = try ControlClient.send(request, paths: paths)
        } catch {
            printError("Error: \(error)")
            return ExitCode.failure
        }
        guard reply.succeeded else {
            printError("Error: \(reply.message)")
            return ExitCode.failure
        }
        for line in reply.details { printOut(line) }
        return ExitCode.success
    }
}
