#if canImport(Glibc)
import Glibc
#endif
import Bridge
import BridgeConfig
import EventLoop
import FocusTracking
import Mapping

/// `daydream-bridge follow-focus`: tells the running bridge which application has the focus, so
/// profiles with `applications = [...]` follow the game.
enum FollowFocusCommand: Subcommand {
    /// The options, declared once for the scanner, the usage line and the help.
    enum Option {
        static let print = CommandOption.flag(
            "--print", help: "Print each focus change and the profile the rules give it, instead of telling the bridge.")
        static let config = CommandOption.value(
            "--config", named: "FILE", help: "With --print: the config whose rules to show (default: the lookup, as 'run' does).")
    }

    static let declaration = CommandDeclaration(
        name: "follow-focus",
        abstract: "Tell the running bridge which application has the focus (profiles with 'applications' follow it).",
        options: [CommandOption.controlSocket, Option.print, Option.config],
        discussion: """
        Runs in the desktop session (the user unit daydream-bridge-focus.service
        starts it with the graphical session) and listens for focus changes,
        never polling: in a wlroots compositor (sway, Hyprland, niri, labwc,
        river) the foreign-toplevel protocol's activated window and its app_id;
        on X11 the window manager's _NET_ACTIVE_WINDOW and the window's
        WM_CLASS. On KDE Plasma and GNOME a KWin script or a Shell extension
        tells the bridge over D-Bus instead. Each change goes to the
        bridge's control socket as the application's ids; the bridge switches
        to the profile that lists one of them, or back to the profile from
        before when none does.
        """,
        notes: """
        Exit status: 0 after SIGINT or SIGTERM, 1 when no desktop can be
        followed or the display server went away.
        """)

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try scan(arguments)
        guard options.positionals.isEmpty else { throw UsageError("unexpected argument '\(options.positionals[0])'") }
        let printing = options.flag(Option.print)
        if options.value(Option.config) != nil, !printing { throw UsageError("--config goes with --print") }
        let reactor = try Reactor()
        let source: any FocusSource
        do {
            source = try FocusSourceChoice.source(environment: FocusSourceChoice.processEnvironment(), reactor: reactor)
        } catch where error.isNotNeeded {
            printError(error.description)
            return ExitCode.success
        } catch {
            printError("Error: \(error)")
            return ExitCode.failure
        }
        if printing, source is KWinFocusScript {
            throw UsageError("on KDE Plasma the KWin script tells the bridge directly; --print works on X11 and wlroots compositors")
        }
        let report: @MainActor (WindowFocus) -> Void
        if printing {
            guard let loaded = loadCommandConfig(path: options.value(Option.config)) else { return ExitCode.configError }
            report = { focus in printOut(FocusLine.text(focus, configuration: loaded.configuration)) }
        } else {
            let teller = FocusTeller(paths: options.controlSocketPaths)
            report = { teller.tell($0) }
        }
        var status = ExitCode.success
        for number in [SIGINT, SIGTERM] {
            try? reactor.handleSignal(number) { [weak reactor] _ in reactor?.stop() }
        }
        printError("following the focus through \(source.description)")
        var last: WindowFocus?
        source.start(changed: { focus in
            guard focus.ids != last?.ids else { return }
            last = focus
            report(focus)
        }, ended: { reason in
            printError("Error: \(reason)")
            status = ExitCode.failure
            reactor.stop()
        })
        reactor.run()
        source.stop()
        return status
    }
}

/// Sends each focus change to the bridge's control socket; a bridge that is not running is said
/// once, and told the next change when it is back.
@MainActor
final class FocusTeller {
    private let paths: [String]
    private var saidUnreachable = false

    init(paths: [String]) {
        self.paths = paths
    }

    func tell(_ focus: WindowFocus) {
        do {
            let reply = try ControlClient.send(.focus(ids: focus.ids.filter { !$0.contains(where: \.isWhitespace) }), paths: paths)
            if !reply.succeeded { printError("Error: the bridge refused the focus: \(reply.message)") }
            saidUnreachable = false
        } catch {
            if !saidUnreachable { printError("the bridge does not answer (\(error)); telling it the next change") }
            saidUnreachable = true
        }
    }
}

/// `follow-focus --print`'s line: the application's ids, its title, and the profile the rules give it.
enum FocusLine {
    static func text(_ focus: WindowFocus, configuration: MappingConfiguration) -> String {
        guard !focus.ids.isEmpty else { return "nothing focused -> the profile from before" }
        let profile = configuration.profile(forApplication: focus.ids).map { "profile \($0.name)" } ?? "no profile lists it"
        return "\(focus.ids.joined(separator: " ")) (\(focus.title)) -> \(profile)"
    }
}
