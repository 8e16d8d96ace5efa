#if canImport(Glibc)
import Glibc
#endif
import Bridge
import BridgeConfig
import EventLoop
import LocalHTTP
import Timebase

/// `daydream-bridge ui`: the mapping editor, a page served on loopback.
enum UICommand: Subcommand {
    /// The options, declared once for the scanner, the usage line and the help.
    enum Option {
        static let listen = CommandOption.value(
            "--listen", named: "ADDRESS:PORT",
            help: "Where to serve the page (default 127.0.0.1:7355; port 0 picks a free one). Another address than loopback is warned about; "
                + "0.0.0.0 prints the page's address on each of the machine's, and the first other machines reach as a QR code.")
        static let config = CommandOption.value("--config", named: "FILE", help: "The config to edit (default: the lookup, as 'run' does).")
        static let replay = CommandOption.value(
            "--replay", named: "FILE",
            help: "Play a recording (made with 'record') round and round in a bridge of the page's own, instead of watching the running one.")
        static let noOpen = CommandOption.flag("--no-open", help: "Print the page's address only; do not run xdg-open.")
    }

    static let declaration = CommandDeclaration(
        name: "ui",
        abstract: "Serve the mapping editor page on loopback and open it in the browser.",
        options: [Option.listen, Option.config, CommandOption.controlSocket, Option.replay, Option.noOpen],
        discussion: """
        Runs in the user's session, as the user whose config it edits, and
        prints the page's address with a one-time token (valid once, within 5
        minutes); xdg-open is given a file only the user can read that leads to
        an address of its own (once, within 60 s), never a token. The first load
        of an address gives the browser the session's cookie; every request
        needs that cookie, a Host that is the listen address, and for changes
        the page's own Origin. The page shows the running bridge's controllers
        live (the control socket's watch stream) and saves each change where it
        is written in the config, keeping every other byte, after checking it,
        and only over the file the page loaded; the running bridge reloads it.
        Its Controllers panel pairs, forgets, recentres, calibrates and switches
        the bridge's controllers through the bridge's control socket.
        On a box without a desktop, reach it through SSH: ssh -L
        7355:127.0.0.1:7355 HOST, then open the printed address here. The page's
        files are found in $DAYDREAM_BRIDGE_WEB, else beside the program
        (../share/daydream-bridge/web), else in the source tree's web/. With
        --replay, the page's bridge plays the recording with the config being
        edited and reloads it on each save; its devices write nowhere, and what
        they would send shows on the page.
        """,
        notes: """
        Exit status: 0 after SIGINT or SIGTERM, 1 when it cannot listen or
        find the page's files.
        """)

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try scan(arguments)
        guard options.positionals.isEmpty else { throw UsageError("unexpected argument '\(options.positionals[0])'") }
        let address: ListenAddress
        if let text = options.value(Option.listen) {
            guard let parsed = ListenAddress(text) else { throw UsageError("--listen takes ADDRESS:PORT like 127.0.0.1:7355, not '\(text)'") }
            address = parsed
        } else {
            address = .loopbackDefault
        }
        guard let directory = pageDirectory(), let files = PageFiles(directory: directory) else {
            printError("Error: the page's files are missing: set DAYDREAM_BRIDGE_WEB to the web directory (make install puts it in PREFIX/share/daydream-bridge/web)")
            return ExitCode.failure
        }
        let configPath: String? = {
            switch ConfigurationChoice.source(path: options.value(Option.config)) {
            case .file(let path): path
            case .builtIn: nil
            }
        }()
        if options.value(Option.replay) != nil, options.value(.controlSocket) != nil {
            throw UsageError("--replay and --socket cannot be used together")
        }
        let reactor = try Reactor()
        Reactor.ignoreBrokenPipe()
        var replay: EditorReplay?
        if let recording = options.value(Option.replay) {
            replay = try EditorReplay(recordingPath: recording, configPath: configPath, reactor: reactor)
        }
        defer { replay?.stop() }
        let socketPaths = replay.map { [$0.socketPath] } ?? options.controlSocketPaths
        let api = EditorAPI(files: files, configPath: configPath, socketPaths: socketPaths, reactor: reactor)
        if let replay { api.controllers.answerHere = { replay.reply(to: $0) } }
        // The rules need the port the kernel chose for port 0: known once the server listens.
        let rules = RulesHolder()
        let server = try HTTPServer(listening: address, reactor: reactor) { request in
            guard let access = rules.access else { return .response(.text(503, "starting")) }
            if case .answered(let response) = access.decide(request) { return .response(Self.guarded(response)) }
            let answer = api.answer(request)
            guard case .response(let response) = answer else { return answer }
            return .response(Self.guarded(response))
        }
        defer { server.stop() }
        let reachable = address.isLoopback ? [server.address]
            : PageAddresses.reachable(server.address, interfaces: InterfaceAddresses.current())
        guard let access = PageAccess(address: server.address, reachable: reachable),
              let printedToken = access.issueToken(lifetime: printedTokenLifetime) else {
            printError("Error: cannot read /dev/urandom for the page's token")
            return ExitCode.failure
        }
        rules.access = access
        if !address.isLoopback {
            printError("Warning: serving on \(server.address), which other machines may reach; the one-time address and the cookie are all that guard it")
        }
        UIAddressPrinter.print(reachable.isEmpty ? [server.address] : reachable, token: printedToken, withQRCode: !address.isLoopback)
        var launchFile: BrowserLaunchFile?
        defer { launchFile?.remove() }
        if !options.flag(Option.noOpen), let browserToken = access.issueToken() {
            do {
                launchFile = try BrowserLaunchFile(url: "http://\(server.address)/?token=\(browserToken)")
                launchFile.map { openInBrowser($0.path) }
            } catch {
                printError("Warning: \(error); open the address above in a browser")
            }
        }
        // The replay's bridge stops the loop on these itself.
        if replay == nil {
            for signal in [SIGINT, SIGTERM] {
                try reactor.handleSignal(signal) { [weak reactor] _ in reactor?.stop() }
            }
        }
        reactor.run()
        return ExitCode.success
    }

    /// `response` with the headers that keep the page to itself (the server adds `nosniff` and
    /// `no-store`): its own scripts only, no framing, no token in a referrer.
    static func guarded(_ response: HTTPResponse) -> HTTPResponse {
        var guarded = response
        guarded.headers += [
            ("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'"), ("Referrer-Policy", "no-referrer"),
        ]
        return guarded
    }

    @MainActor
    private final class RulesHolder {
        var access: PageAccess?
    }

    /// `$DAYDREAM_BRIDGE_WEB`, else `../share/daydream-bridge/web` beside the program, else the
    /// source tree's `web/` above a `.build` directory.
    static func pageDirectory() -> String? {
        if let given = getenv("DAYDREAM_BRIDGE_WEB"), given.pointee != 0 { return String(cString: given) }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let program = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var directory = String(program[..<(program.lastIndex(of: "/") ?? program.endIndex)])
        let installed = directory + "/../share/daydream-bridge/web"
        if access(installed + "/index.html", R_OK) == 0 { return installed }
        while let slash = directory.lastIndex(of: "/"), !directory.isEmpty {
            if directory.hasSuffix("/.build") {
                let source = String(directory.dropLast("/.build".count)) + "/web"
                return access(source + "/index.html", R_OK) == 0 ? source : nil
            }
            directory = String(directory[..<slash])
        }
        return nil
    }

    /// How long the printed address's one-time token is valid: long enough to reach the page
    /// through SSH by hand.
    static let printedTokenLifetime = TimeSpan.seconds(300)

    /// `xdg-open FILE`, detached (the file, not the address, so that no token is in its
    /// arguments); without it, how to open the page by hand.
    private static func openInBrowser(_ file: String) {
        var pid: pid_t = 0
        let arguments = ["xdg-open", file]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        if posix_spawnp(&pid, "xdg-open", &actions, nil, &argv, environ) != 0 {
            printError("xdg-open is not installed: open the address above in a browser")
        }
    }
}
