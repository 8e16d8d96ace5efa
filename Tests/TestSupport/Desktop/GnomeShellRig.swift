import Foundation
import Glibc

/// A headless GNOME Shell (`--headless --wayland --virtual-monitor`, Xwayland on demand) with
/// the bridge's extension and the test's focus driver enabled, on a session bus of its own and a
/// stand-in system bus (the Shell only needs to reach one; logind and the rest are absent). As
/// root, everything runs as `nobody`, in a runtime directory that is also its home.
public final class GnomeShellRig: SessionDesktop {
    public static let available = ["/usr/bin/gnome-shell", "/usr/bin/Xwayland", "/usr/bin/dbus-daemon", "/usr/bin/gdbus", "/usr/bin/gsettings",
                            "/usr/bin/xmessage", "/usr/bin/xfontsel"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    public static let extensions = ["daydream-bridge@daydream-bridge", "gnome-focus-driver@daydream-bridge-tests"]
    /// The repository: this file is in Tests/TestSupport/Desktop.
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    private let scratch: TemporaryDirectory
    /// The Shell's XDG_RUNTIME_DIR and HOME, owned by its user.
    public let runtime: String
    private let sessionBus: RunningBinary
    private let systemBus: RunningBinary
    private let shell: RunningBinary
    /// The environment of the Shell's session: its buses, Wayland and X11 displays.
    public let environment: [String: String]

    public init() throws {
        try DesktopSession.makeX11SocketDirectory()
        scratch = try TemporaryDirectory(prefix: "daydream-gnome")
        _ = chmod(scratch.path, 0o755)
        runtime = scratch.path + "/runtime"
        let installed = runtime + "/.local/share/gnome-shell/extensions"
        try FileManager.default.createDirectory(atPath: installed, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.repository + "/desktop/gnome-shell/" + Self.extensions[0],
                                         toPath: installed + "/" + Self.extensions[0])
        try FileManager.default.copyItem(atPath: Self.repository + "/Tests/desktop/" + Self.extensions[1],
                                         toPath: installed + "/" + Self.extensions[1])
        if getuid() == 0 { try Self.chownToNobody(runtime) }
        _ = chmod(runtime, 0o700)
        let home = ["XDG_RUNTIME_DIR": runtime, "HOME": runtime]
        let (session, sessionAddress) = try DesktopSession.startBus("session-bus", directory: scratch.path, environment: home)
        let (system, systemAddress) = try DesktopSession.startBus("system-bus", directory: scratch.path, environment: home)
        sessionBus = session
        systemBus = system
        // GLib's keyfile settings backend: no dconf-service to outlive the test.
        let buses = home.merging([
            "DBUS_SESSION_BUS_ADDRESS": sessionAddress, "DBUS_SYSTEM_BUS_ADDRESS": systemAddress, "GSETTINGS_BACKEND": "keyfile",
        ]) { $1 }
        let enabled = "[" + Self.extensions.map { "'\($0)'" }.joined(separator: ", ") + "]"
        let settings = try DesktopSession.runAsUser("/usr/bin/gsettings", ["set", "org.gnome.shell", "enabled-extensions", enabled],
                                                    directory: scratch.path, name: "gsettings", environment: buses)
        guard settings.waitForExit(timeout: 30) == 0 else { throw TestFailure("gsettings failed: \(settings.stderr)") }
        shell = try DesktopSession.runAsUser("/usr/bin/gnome-shell", [
            "--headless", "--wayland", "--virtual-monitor", "640x480", "--wayland-display", "wayland-gs",
        ], directory: scratch.path, name: "gnome-shell", environment: buses)
        let shell = shell
        let runtime = runtime
        func display() -> String? {
            shell.stderr.range(of: #"Using public X11 display :\d+"#, options: .regularExpression)
                .map { String(shell.stderr[$0].split(separator: " ").last ?? "") }
        }
        func authority() -> String? {
            ((try? FileManager.default.contentsOfDirectory(atPath: runtime)) ?? []).first { $0.hasPrefix(".mutter-Xwaylandauth.") }
                .map { runtime + "/" + $0 }
        }
        guard shell.waitFor(timeout: 60, { display() != nil && authority() != nil }), let display = display(), let authority = authority() else {
            throw TestFailure("GNOME Shell did not start Xwayland: \(shell.stderr.suffix(3000))")
        }
        environment = buses.merging(["WAYLAND_DISPLAY": "wayland-gs", "DISPLAY": display, "XAUTHORITY": authority]) { $1 }
        // The extensions are up once the driver answers.
        guard shell.waitFor(timeout: 30, { (try? self.driver(["Activate", "none"])) == "(false,)" }) else {
            throw TestFailure("the Shell did not enable the extensions: \(shell.stderr.suffix(3000))")
        }
    }

    /// `chown -R nobody:nogroup path`.
    private static func chownToNobody(_ path: String) throws {
        guard let walker = FileManager.default.enumerator(atPath: path) else { return }
        _ = chown(path, 65534, 65534)
        for case let relative as String in walker { _ = lchown(path + "/" + relative, 65534, 65534) }
    }

    /// The built binary with `arguments`, as the Shell's user, in its session.
    public func run(_ arguments: [String], name: String) throws -> RunningBinary {
        try DesktopSession.runAsUser(BuiltBinary.url.path, arguments, directory: scratch.path, name: name, environment: environment)
    }

    /// An X11 program on the Shell's Xwayland, as its user, once the Shell has its window.
    public func x11Client(_ program: String, _ arguments: [String], windowClass: String) throws -> RunningBinary {
        let client = try DesktopSession.runAsUser(program, arguments, directory: scratch.path,
                                                  name: URL(fileURLWithPath: program).lastPathComponent, environment: environment)
        // Activating it answers true once the Shell manages the window (which activates it too).
        guard client.waitFor(timeout: 15, { (try? self.driver(["Activate", windowClass])) == "(true,)" }) else {
            throw TestFailure("\(program) never got a window in the Shell: \(client.stderr.suffix(1000))")
        }
        return client
    }

    /// Gives the focus to the first window of `windowClass`, through the test's driver extension.
    public func activate(_ windowClass: String) throws {
        let reply = try driver(["Activate", windowClass])
        guard reply == "(true,)" else { throw TestFailure("the Shell has no \(windowClass) window: \(reply)") }
    }

    /// `gdbus call` to the driver's method, as the Shell's user; its printed reply.
    private func driver(_ arguments: [String]) throws -> String {
        let call = try DesktopSession.runAsUser("/usr/bin/gdbus", [
            "call", "--session", "--dest", "org.gnome.Shell", "--object-path", "/org/daydream_bridge/TestDriver",
            "--method", "org.daydream_bridge.TestDriver." + arguments[0],
        ] + arguments.dropFirst(), directory: scratch.path, name: "gdbus", environment: environment)
        _ = call.waitForExit(timeout: 10)
        return call.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public func stop() {
        shell.stop()
        sessionBus.stop()
        systemBus.stop()
        DesktopSession.killProcesses(runningIn: runtime)
    }
}
