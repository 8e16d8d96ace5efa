import Foundation
import Glibc
import TestSupport
import Testing

/// `follow-focus` on a real X server (Xvfb) with a real window manager that keeps
/// `_NET_ACTIVE_WINDOW` (openbox), two X clients of different WM_CLASS (xmessage), and the focus
/// moved by xdotool: the replaying daemon's profile follows.
@Suite("follow-focus on X11", .serialized, .requires(BuiltBinary.exists && X11Rig.available, "needs Xvfb, openbox, xdotool and xmessage"))
struct FollowFocusX11Tests {
    static let config = """
    [bridge]
    profile = "desktop"
    [profile.desktop]
    click = "BTN_LEFT"
    [profile.shooter]
    click = "BTN_SOUTH"
    applications = ["xonotic*"]
    [profile.notes]
    click = "KEY_ENTER"
    applications = ["Notes-App"]
    """

    /// What `profile` prints: the replayed controller's profile.
    static func profile(_ socket: String) -> String {
        (try? BuiltBinary.run(["profile", "--socket", socket]).stdout) ?? ""
    }

    @Test func theProfileFollowsTheActiveWindow() throws {
        let x = try X11Rig()
        defer { x.stop() }
        let scratch = try RunCommandTests.makeDirectory()
        try Self.config.save(toFile: scratch.path + "/config.toml")
        let socket = scratch.path + "/control"
        let daemon = try RunningBinary(
            ["run", "--replay", scratch.path + "/held.recording", "--print", "--socket", socket, "--config", scratch.path + "/config.toml"],
            directory: scratch.path)
        defer {
            daemon.signal(SIGTERM)
            _ = daemon.waitForExit()
        }
        #expect(daemon.waitFor { Self.profile(socket).contains("desktop, connected") }, "\(daemon.stderr)")
        let game = try x.client("xonotic-sdl")
        let notes = try x.client("notes-app")
        defer { game.stop(); notes.stop() }

        let followerDirectory = scratch.path + "/follower"
        try FileManager.default.createDirectory(atPath: followerDirectory, withIntermediateDirectories: true)
        let follower = try RunningBinary(["follow-focus", "--socket", socket], directory: followerDirectory, environment: ["DISPLAY": x.display])
        defer {
            follower.signal(SIGKILL)
            _ = follower.waitForExit()
        }
        #expect(follower.waitFor { follower.stderr.contains("following the focus through X11") }, "\(follower.stderr)")

        var latencies: [Double] = []
        for (window, expected) in [("xonotic-sdl", "shooter"), ("notes-app", "notes"), ("xonotic-sdl", "shooter")] {
            try x.activate(window)
            let activated = Date()
            #expect(daemon.waitFor(timeout: 10) { Self.profile(socket).contains("\(expected), connected") },
                    "\(window): \(Self.profile(socket))\n\(follower.stderr)\n\(daemon.stderr)")
            latencies.append(Date().timeIntervalSince(activated) * 1000)
        }
        // A window no profile lists: the profile from before the first automatic switch.
        let other = try x.client("unlisted")
        defer { other.stop() }
        try x.activate("unlisted")
        #expect(daemon.waitFor(timeout: 10) { Self.profile(socket).contains("desktop, connected") }, "\(Self.profile(socket))")
        print("follow-focus X11: focus change to profile switch, as seen through the socket: "
            + latencies.map { String(format: "%.0f ms", $0) }.joined(separator: ", "))
        #expect(follower.process.isRunning, "\(follower.stderr)")
    }

    @Test func printShowsTheIdsAndTheProfileTheRulesGive() throws {
        let x = try X11Rig()
        defer { x.stop() }
        let scratch = try TemporaryDirectory(prefix: "daydream-focus")
        try Self.config.save(toFile: scratch.path + "/config.toml")
        let game = try x.client("xonotic-sdl")
        defer { game.stop() }
        let printer = try RunningBinary(["follow-focus", "--print", "--config", scratch.path + "/config.toml"],
                                        directory: scratch.path, environment: ["DISPLAY": x.display])
        defer {
            printer.signal(SIGKILL)
            _ = printer.waitForExit()
        }
        try x.activate("xonotic-sdl")
        #expect(printer.waitFor(timeout: 10) { printer.stdout.contains("xonotic-sdl Xmessage (") },
                "\(printer.stdout)\n\(printer.stderr)")
        #expect(printer.stdout.contains("-> profile shooter"), "\(printer.stdout)")
    }
}

/// A private X server (Xvfb) with openbox, for the duration of a test.
final class X11Rig {
    static let available = ["/usr/bin/Xvfb", "/usr/bin/openbox", "/usr/bin/xdotool", "/usr/bin/xmessage", "/usr/bin/xprop"]
        .allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }

    let display: String
    private let scratch: TemporaryDirectory
    private let server: RunningBinary
    private let windowManager: RunningBinary

    init() throws {
        let scratch = try TemporaryDirectory(prefix: "daydream-x11")
        // -displayfd 1: Xvfb picks a free display and prints its number once it accepts clients.
        let server = try RunningBinary(program: "/usr/bin/Xvfb", ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "640x480x24"],
                                       directory: scratch.path, name: "xvfb")
        guard server.waitFor({ server.stdout.contains("\n") }) else { throw TestFailure("Xvfb did not start: \(server.stderr)") }
        let display = ":" + server.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let windowManager = try RunningBinary(program: "/usr/bin/openbox", ["--sm-disable"], directory: scratch.path, name: "openbox",
                                              environment: ["DISPLAY": display])
        guard windowManager.waitFor({
            (try? Self.run("/usr/bin/xprop", ["-root", "_NET_SUPPORTING_WM_CHECK"], display: display))?.contains("window id") == true
        }) else { throw TestFailure("openbox did not start: \(windowManager.stderr)") }
        (self.scratch, self.server, self.display, self.windowManager) = (scratch, server, display, windowManager)
    }

    /// An X client whose WM_CLASS instance is `name` (class `Xmessage`), once its window is mapped.
    func client(_ name: String) throws -> RunningBinary {
        let client = try RunningBinary(program: "/usr/bin/xmessage", ["-name", name, name], directory: scratch.path, name: name,
                                              environment: ["DISPLAY": display])
        let display = display
        guard client.waitFor({
            !((try? Self.run("/usr/bin/xdotool", ["search", "--onlyvisible", "--classname", "^\(name)$"], display: display)) ?? "").isEmpty
        }) else { throw TestFailure("\(name)'s window never appeared: \(client.stderr)") }
        return client
    }

    /// Activates the window of `name` through the window manager, and waits until it is active.
    func activate(_ name: String) throws {
        _ = try Self.run("/usr/bin/xdotool", ["search", "--onlyvisible", "--classname", "^\(name)$", "windowactivate", "--sync"], display: display)
    }

    func stop() {
        windowManager.stop()
        server.stop()
    }

    @discardableResult
    static func run(_ tool: String, _ arguments: [String], display: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["DISPLAY": display]) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
