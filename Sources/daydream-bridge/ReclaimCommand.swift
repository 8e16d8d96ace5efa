import Bridge

/// `daydream-bridge reclaim [ADDRESS]`: take lent controllers back.
enum ReclaimCommand: Subcommand {
    static let declaration = CommandDeclaration(
        name: "reclaim", operands: "[ADDRESS]",
        abstract: "Take a lent controller back into the running bridge.",
        options: [CommandOption.controlSocket],
        discussion: """
        Takes every lent controller (or the one at ADDRESS) back: the bridge
        subscribes to its input again, and tries again while another program
        still holds it. A controller that is not lent stays as it is.
        """,
        notes: """
        Exit status: 0 when done, 1 when no daemon answers or it refused (no
        such controller).
        """)

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try scan(arguments)
        guard options.positionals.count <= 1 else { throw UsageError("reclaim takes at most one ADDRESS") }
        guard let reply = ControlRequestSender.send(.reclaim(address: options.positionals.first), paths: options.controlSocketPaths) else {
            return ExitCode.failure
        }
        for line in reply.details { printOut(line) }
        return ExitCode.success
    }
}
