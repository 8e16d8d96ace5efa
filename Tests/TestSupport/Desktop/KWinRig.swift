import Foundation
import Glibc

/// A headless KWin (Wayland, `--virtual`, with Xwayland) on a session bus of its own, for the
/// duration of a test. As root, the bus, KWin and everything that talks to them run as `nobody`
/// (the session bus admits its own user only), in a runtime directory of their own. KWin runs
/// from a copy: Debian's binary carries a file capability that `nobody` may not exec with.
public final class KWinRig: SessionDesktop {
    public static let available = ["/usr/bin/kwin_wayland", "/usr/bin/Xwayland", "/usr/bin/dbus-daemon", "/usr/bin/xmessage", "/usr/bin/xfontsel"]
        .allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }

    private let scratch: TemporaryDirectory
    /// KWin's XDG_RUNTIME_DIR, owned by its user.
    public let runtime: String
    private let bus: RunningBinary
    private let compositor: RunningBinary
    /// The environment of KWin's session: its bus, Wayland and X11 displays, KDE as the desktop.
    public let environment: [String: String]
    private var activations = 0

    public init() throws {
        try DesktopSession.makeX11SocketDirectory()
        scratch = try TemporaryDirectory(prefix: "daydream-kwin")
        runtime = try DesktopSession.makeRuntimeDirectory(in: scratch.path)
        let kwin = scratch.path + "/kwin_wayland"
        try FileManager.default.copyItem(atPath: "/usr/bin/kwin_wayland", toPath: kwin)
        let home = ["XDG_RUNTIME_DIR": runtime, "HOME": runtime]
        let address: String
        (bus, address) = try DesktopSession.startBus("dbus", directory: scratch.path, environment: home)
        let displayFile = runtime + "/display"
        compositor = try DesktopSession.runAsUser(
            kwin, ["--xwayland", "--virtual", "--socket", "wayland-kwin", "--no-lockscreen", "--no-global-shortcuts",
                   "--width", "640", "--height", "480", "sh -c 'echo $DISPLAY > \(displayFile)'"],
            directory: scratch.path, name: "kwin", environment: home.merging(["DBUS_SESSION_BUS_ADDRESS": address]) { $1 })
        let compositor = compositor
        func display() -> String? {
            (try? String(contentsOfFile: displayFile, encoding: .utf8)).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        }
        guard compositor.waitFor(timeout: 60, { display()?.hasPrefix(":") == true }), let display = display() else {
            throw TestFailure("KWin did not start Xwayland: \(compositor.stderr.suffix(2000))")
        }
        environment = home.merging([
            "DBUS_SESSION_BUS_ADDRESS": address, "WAYLAND_DISPLAY": "wayland-kwin", "DISPLAY": display, "XDG_CURRENT_DESKTOP": "KDE",
        ]) { $1 }
    }

    /// The built binary with `arguments`, as KWin's user, in its session.
    public func run(_ arguments: [String], name: String) throws -> RunningBinary {
        try DesktopSession.runAsUser(BuiltBinary.url.path, arguments, directory: scratch.path, name: name, environment: environment)
    }

    /// An X11 program on KWin's Xwayland, as its user.
    public func x11Client(_ program: String, _ arguments: [String]) throws -> RunningBinary {
        try DesktopSession.runAsUser(program, arguments, directory: scratch.path, name: URL(fileURLWithPath: program).lastPathComponent,
                                     environment: environment)
    }

    /// Activates the first window whose resource class is `windowClass`, with a KWin script loaded
    /// and run over D-Bus (a headless KWin has no input to click with); when the `start` call that
    /// runs it began.
    public func activate(_ windowClass: String) throws -> Date {
        activations += 1
        let name = "daydream-bridge-tests-activate-\(activations)"
        let path = runtime + "/\(name).js"
        try """
        var clients = workspace.clientList();
        for (var i = 0; i < clients.length; i++) {
            if (String(clients[i].resourceClass).toLowerCase() == "\(windowClass.lowercased())") { workspace.activeClient = clients[i]; break; }
        }

        """.save(toFile: path)
        _ = chmod(path, 0o644)
        var started = Date()
        for call in [["loadScript", path, name], ["start"], ["unloadScript", name]] {
            if call[0] == "start" { started = Date() }
            let tool = try DesktopSession.runAsUser("/usr/bin/gdbus", [
                "call", "--session", "--dest", "org.kde.KWin", "--object-path", "/Scripting", "--method", "org.kde.kwin.Scripting." + call[0],
            ] + call.dropFirst(), directory: scratch.path, name: "gdbus", environment: environment)
            guard tool.waitForExit(timeout: 10) == 0 else { throw TestFailure("KWin's \(call[0]) failed: \(tool.stderr)") }
        }
        return started
    }

    public func stop() {
        compositor.stop()
        bus.stop()
        DesktopSession.killProcesses(runningIn: runtime)
    }
}
