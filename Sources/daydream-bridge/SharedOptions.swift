import Bridge

/// The options several commands take, declared once so each reads and explains them alike.
extension CommandOption {
    /// `--socket PATH`: the running bridge's control socket, for the commands that talk to it.
    static let controlSocket = CommandOption.value(
        "--socket", named: "PATH",
        help: "The daemon's control socket (default: $XDG_RUNTIME_DIR/daydream-bridge/control for a daemon started by "
            + "the user, then /run/daydream-bridge/control for the system service).")
    /// `-v`, `--verbose`: the log's debug lines too.
    static let verbose = CommandOption.flag("-v", "--verbose", help: "Log debug details.")
}

extension OptionScanner {
    /// Where the running bridge is asked: `--socket`'s path, else where a client looks for it.
    var controlSocketPaths: [String] {
        value(.controlSocket).map { [$0] } ?? ControlSocketPath.candidatesForClient(environment: ControlSocketPath.processEnvironment())
    }
}
