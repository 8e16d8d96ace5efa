import Foundation
import Glibc

/// What the desktop rigs share: their programs run as the session's user (`nobody` when root:
/// sway refuses root, and a session bus lets its own user in only), a runtime directory and a
/// session bus of their own, a tool's printed answer, and the cleaning up.
public enum DesktopSession {
    /// `setpriv` to nobody when root, else nothing: what a program of the session runs under.
    public static var asUser: [String] {
        getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : ["/usr/bin/env"]
    }

    /// `program` with `arguments`, as the session's user.
    public static func runAsUser(_ program: String, _ arguments: [String], directory: String, name: String,
                                 environment: [String: String]) throws -> RunningBinary {
        try RunningBinary(program: asUser[0], Array(asUser.dropFirst()) + [program] + arguments,
                          directory: directory, name: name, environment: environment)
    }

    /// `scratch/runtime`, an XDG_RUNTIME_DIR for the session's user (mode 0700, its owner when
    /// root); `scratch` is opened (0755) so that user reaches it.
    public static func makeRuntimeDirectory(in scratch: String) throws -> String {
        _ = chmod(scratch, 0o755)
        let runtime = scratch + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        if getuid() == 0 { _ = chown(runtime, 65534, 65534) }
        _ = chmod(runtime, 0o700)
        return runtime
    }

    /// `/tmp/.X11-unix` as a booted system has it: made by tmpfiles.d, root's, mode 1777 with the
    /// sticky bit. Xwayland puts its sockets there, and KWin and GNOME Shell refuse to start it
    /// without the folder, which their user (`nobody` under root) cannot make as root's. Before
    /// any X server has run on a fresh machine nothing else has made it.
    public static func makeX11SocketDirectory() throws {
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
    public static func startBus(_ name: String, directory: String, environment: [String: String]) throws -> (RunningBinary, String) {
        let daemon = try runAsUser("/usr/bin/dbus-daemon", ["--session", "--nofork", "--print-address=1"],
                                   directory: directory, name: name, environment: environment)
        guard daemon.waitFor(timeout: 10, { daemon.stdout.hasSuffix("\n") }) else { throw TestFailure("dbus-daemon did not start: \(daemon.stderr)") }
        return (daemon, daemon.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Runs `tool` with `arguments` and `environment` added to the test's, to its exit; what it
    /// printed on standard output (standard error dropped).
    @discardableResult
    public static func output(of tool: String, _ arguments: [String], environment: [String: String] = [:]) throws -> String {
        try ProgramOutput.run(tool, arguments, environment: environment, droppingErrors: true).stdout
    }

    /// Kills the processes a desktop's session leaves: services its bus started (dconf-service,
    /// gnome-shell-calendar-server), found by the session's XDG_RUNTIME_DIR in their environment.
    /// A process can start another as it dies (at-spi's bus launcher its dbus-daemon), so the
    /// sweep is repeated until one finds nothing left to kill.
    public static func killProcesses(runningIn runtime: String) {
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

/// A desktop whose windows a test opens and focuses: `X11Rig`, `SwayRig`.
public protocol FocusDesktop: AnyObject {
    /// What a client of the desktop needs in its environment (DISPLAY, WAYLAND_DISPLAY...).
    var environment: [String: String] { get }
    /// A window of an application whose id is `id`, once the desktop shows it.
    func client(_ id: String) throws -> RunningBinary
    /// Gives the focus to the window of `id`, and returns once the desktop did.
    func focus(_ id: String) throws
    /// Stops the desktop.
    func stop()
}

/// A desktop with a session bus that the bridge and its follower join as the session's user:
/// `KWinRig`, `GnomeShellRig`.
public protocol SessionDesktop: AnyObject {
    /// The session's XDG_RUNTIME_DIR, owned by its user.
    var runtime: String { get }
    /// The environment of the session: its bus, its displays.
    var environment: [String: String] { get }
    /// The built binary with `arguments`, as the session's user, in its session.
    func run(_ arguments: [String], name: String) throws -> RunningBinary
    /// Stops the desktop and what its session left.
    func stop()
}
