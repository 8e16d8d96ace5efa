import Foundation
import Glibc
import TestSupport
import Testing

/// `follow-focus` on KDE Plasma: KWin 5.27 (Debian 12's), headless (`--virtual`) with Xwayland, runs
/// the script follow-focus loads over D-Bus; X11 windows of two applications open and close, and
/// the replaying daemon's profile follows what KWin activates, through the script's D-Bus calls.
@Suite("follow-focus on KDE Plasma", .serialized, .requires(BuiltBinary.exists && KWinRig.available,
    "needs kwin_wayland, Xwayland, dbus-daemon, xmessage and xfontsel (kwin-wayland, xwayland, x11-utils)"))
struct FollowFocusKWinTests {
    static let config = """
    [bridge]
    profile = "desktop"

    [profile.desktop]
    click = "BTN_LEFT"

    [profile.shooter]
    click = "BTN_SOUTH"
    applications = ["xmessage"]

    [profile.notes]
    click = "KEY_ENTER"
    applications = ["XFontSel"]
    """

    @Test func theProfileFollowsTheWindowKWinActivates() throws {
        let kwin = try KWinRig()
        defer { kwin.stop() }
        let scratch = try RunCommandTests.makeDirectory()
        _ = chmod(scratch.path, 0o755)
        try Self.config.save(toFile: scratch.path + "/config.toml")
        // On KWin's session bus, which lets only its own user in: the daemon and follow-focus run as that user.
        let socket = kwin.runtime + "/control"
        let daemon = try kwin.run(["run", "--replay", scratch.path + "/held.recording", "--print", "--socket", socket,
                                   "--bus", "session", "--config", scratch.path + "/config.toml"], name: "bridge")
        defer { daemon.signal(SIGTERM); _ = daemon.waitForExit() }
        #expect(daemon.waitFor { FollowFocusX11Tests.profile(socket).contains("desktop, connected") }, "\(daemon.stderr)")
        #expect(daemon.waitFor { daemon.stderr.contains("D-Bus API on the session bus") }, "\(daemon.stderr)")
        let follower = try kwin.run(["follow-focus", "--socket", socket], name: "follower")
        defer { follower.signal(SIGTERM); _ = follower.waitForExit() }
        #expect(follower.waitFor { follower.stderr.contains("following the focus through a KWin script") }, "\(follower.stderr)")

        let timeline = try FocusSwitchTimeline(directory: scratch.path, environment: kwin.environment)
        defer { timeline.stop() }
        var latencies: [Double] = []
        var parts: [String] = []
        /// The desktop's part and the bridge's of the switch after `mark`, on the bus's clock.
        func timed(_ mark: Int64, startMember: String?) {
            let found = timeline.waitForSwitch(after: mark, startMember: startMember)
            #expect(found != nil, "no SetFocusedApplication and Profile change on the bus after the change")
            parts.append(found?.description ?? "?")
        }
        /// Waits for the daemon's log of a switch to `profile` after `change`: the time from the
        /// change's start (an upper bound) to the log line, read every 20 ms.
        func expect(_ profile: String, after change: () throws -> Date?) rethrows -> Double {
            let switches = daemon.stderr.components(separatedBy: "-> \(profile)").count
            var changed = Date()
            if let started = try change() { changed = started }
            #expect(daemon.waitFor(timeout: 15) { daemon.stderr.components(separatedBy: "-> \(profile)").count > switches },
                    "\(profile): \(daemon.stderr.suffix(1500))\n\(follower.stderr)")
            #expect(FollowFocusX11Tests.profile(socket).contains("\(profile), connected"))
            return Date().timeIntervalSince(changed) * 1000
        }
        var game: RunningBinary?
        var notes: RunningBinary?
        // A new window is activated (its start is in these times, so they are not kept).
        _ = try expect("shooter") { game = try kwin.x11Client("/usr/bin/xmessage", ["-name", "game", "a game"]); return nil }
        _ = try expect("notes") { notes = try kwin.x11Client("/usr/bin/xfontsel", []); return nil }
        // Activated by a KWin script, as a click would; a closed window hands the focus to the one below.
        for (windowClass, profile) in [("xmessage", "shooter"), ("xfontsel", "notes")] {
            let mark = FocusSwitchTimeline.now
            latencies.append(try expect(profile) { try kwin.activate(windowClass) })
            timed(mark, startMember: "start")
        }
        for (window, profile) in [(notes, "shooter"), (game, "desktop")] {
            let mark = FocusSwitchTimeline.now
            latencies.append(expect(profile) { window?.stop(); return nil })
            timed(mark, startMember: nil)
        }
        print("follow-focus KWin: from the D-Bus call that runs an activating script, or a window's close, to the daemon's log of the switch (read every 20 ms): "
            + latencies.map { String(format: "%.0f ms", $0) }.joined(separator: ", "))
        print("follow-focus KWin, on the bus's clock: KWin's part (the script's start, or the close, to its SetFocusedApplication call) "
            + "+ the bridge's (that call to its PropertiesChanged for Profile): " + parts.joined(separator: ", "))
        #expect(follower.process.isRunning, "\(follower.stderr)")
    }
}

/// A headless KWin (Wayland, `--virtual`, with Xwayland) on a session bus of its own, for the
/// duration of a test. As root, the bus, KWin and everything that talks to them run as `nobody`
/// (the session bus admits its own user only), in a runtime directory of their own. KWin runs
/// from a copy: Debian's binary carries a file capability that `nobody` may not exec with.
final class KWinRig {
    static let available = ["/usr/bin/kwin_wayland", "/usr/bin/Xwayland", "/usr/bin/dbus-daemon", "/usr/bin/xmessage", "/usr/bin/xfontsel"]
        .allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }

    private let scratch: TemporaryDirectory
    /// KWin's XDG_RUNTIME_DIR, owned by its user.
    let runtime: String
    private let bus: RunningBinary
    private let compositor: RunningBinary
    /// The environment of KWin's session: its bus, Wayland and X11 displays, KDE as the desktop.
    let environment: [String: String]
    private var activations = 0

    init() throws {
        try DesktopSession.makeX11SocketDirectory()
        scratch = try TemporaryDirectory(prefix: "daydream-kwin")
        _ = chmod(scratch.path, 0o755)
        runtime = scratch.path + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        if getuid() == 0 { _ = chown(runtime, 65534, 65534) }
        _ = chmod(runtime, 0o700)
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
    func run(_ arguments: [String], name: String) throws -> RunningBinary {
        try DesktopSession.runAsUser(BuiltBinary.url.path, arguments, directory: scratch.path, name: name, environment: environment)
    }

    /// An X11 program on KWin's Xwayland, as its user.
    func x11Client(_ program: String, _ arguments: [String]) throws -> RunningBinary {
        try DesktopSession.runAsUser(program, arguments, directory: scratch.path, name: URL(fileURLWithPath: program).lastPathComponent,
                                     environment: environment)
    }

    /// Activates the first window whose resource class is `windowClass`, with a KWin script loaded
    /// and run over D-Bus (a headless KWin has no input to click with); when the `start` call that
    /// runs it began.
    func activate(_ windowClass: String) throws -> Date {
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

    func stop() {
        compositor.stop()
        bus.stop()
        DesktopSession.killProcesses(runningIn: runtime)
    }
}

/// What the desktop rigs share: their programs run as the session's user (`nobody` when root,
/// as `SwayRig` does), a session bus of their own, and the cleaning up.
enum DesktopSession {
    /// `program` with `arguments`, as the session's user.
    static func runAsUser(_ program: String, _ arguments: [String], directory: String, name: String,
                          environment: [String: String]) throws -> RunningBinary {
        try RunningBinary(program: SwayRig.asUser[0], Array(SwayRig.asUser.dropFirst()) + [program] + arguments,
                          directory: directory, name: name, environment: environment)
    }

    /// `/tmp/.X11-unix` as a booted system has it: made by tmpfiles.d, root's, mode 1777 with the
    /// sticky bit. Xwayland puts its sockets there, and KWin and GNOME Shell refuse to start it
    /// without the folder, which their user (`nobody` under root) cannot make as root's. Before
    /// any X server has run on a fresh machine nothing else has made it.
    static func makeX11SocketDirectory() throws {
        let path = "/tmp/.X11-unix"
        if mkdir(path, 0o1777) != 0 && errno != EEXIST {
            throw TestFailure("cannot make \(path): \(String(cString: strerror(errno)))")
        }
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { throw TestFailure("\(path) is not a directory") }
        guard getuid() == 0 else { return }
        // As tmpfiles.d's `D /tmp/.X11-unix 1777 root root` leaves it, whoever made it first.
        guard chown(path, 0, 0) == 0, chmod(path, 0o1777) == 0 else {
            throw TestFailure("cannot give \(path) to root with mode 1777: \(String(cString: strerror(errno)))")
        }
    }

    /// A dbus-daemon with the session bus's configuration, as the session's user, and its address.
    static func startBus(_ name: String, directory: String, environment: [String: String]) throws -> (RunningBinary, String) {
        let daemon = try runAsUser("/usr/bin/dbus-daemon", ["--session", "--nofork", "--print-address=1"],
                                   directory: directory, name: name, environment: environment)
        guard daemon.waitFor(timeout: 10, { daemon.stdout.hasSuffix("\n") }) else { throw TestFailure("dbus-daemon did not start: \(daemon.stderr)") }
        return (daemon, daemon.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Kills the processes a desktop's session leaves: services its bus started (dconf-service,
    /// gnome-shell-calendar-server), found by the session's XDG_RUNTIME_DIR in their environment.
    /// A process can start another as it dies (at-spi's bus launcher its dbus-daemon), so the
    /// sweep is repeated until one finds nothing left to kill.
    static func killProcesses(runningIn runtime: String) {
        let marker = Array("XDG_RUNTIME_DIR=\(runtime)".utf8) + [0]
        func sweep() -> Int {
            var killed = 0
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
                guard let pid = Int32(entry), pid != getpid(),
                      let environment = FileManager.default.contents(atPath: "/proc/\(entry)/environ") else { continue }
                if [UInt8](environment).split(separator: 0, omittingEmptySubsequences: false)
                    .contains(where: { Array($0) + [0] == marker }), kill(pid, SIGKILL) == 0 {
                    killed += 1
                }
            }
            return killed
        }
        for _ in 0..<50 where sweep() > 0 {}
    }
}
