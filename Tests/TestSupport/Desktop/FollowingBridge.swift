import Foundation
import Glibc
import Testing

/// The built binary replaying a held controller whose profile follows the focus, as the
/// follow-focus tests run it: `run --replay held.recording --print` with a directory's config,
/// watched through its control socket and its log.
public final class FollowingBridge {
    /// The daemon.
    public let daemon: RunningBinary
    /// Its control socket.
    public let socket: String

    /// Starts the daemon on `directory`'s `held.recording` and `config.toml` with its control
    /// socket at `socket`, through `start` (which runs the binary with the arguments it is
    /// given, as the test's user or a session's), `extra` arguments after the rest.
    public init(directory: String, socket: String, extra: [String] = [], start: ([String]) throws -> RunningBinary) throws {
        self.socket = socket
        daemon = try start(["run", "--replay", directory + "/held.recording", "--print", "--socket", socket] + extra
            + ["--config", directory + "/config.toml"])
    }

    /// The daemon as the test's user, in `directory`.
    public convenience init(directory: String, socket: String) throws {
        try self.init(directory: directory, socket: socket) { try RunningBinary($0, directory: directory) }
    }

    /// What `profile` prints through `socket`: the replayed controller's profile.
    public static func profile(_ socket: String) -> String {
        (try? BuiltBinary.run(["profile", "--socket", socket]).stdout) ?? ""
    }

    /// What `profile` prints now.
    public var profile: String { Self.profile(socket) }

    /// Waits up to `timeout` seconds until `profile` says the controller is in `name`.
    public func waitForProfile(_ name: String, timeout: TimeInterval = RunningBinary.backstop) -> Bool {
        daemon.waitFor(timeout: timeout) { profile.contains("\(name), connected") }
    }

    /// How many switches to `name` the daemon's log shows (plus one).
    public func switches(to name: String) -> Int {
        daemon.stderr.components(separatedBy: "-> \(name)").count
    }

    /// SIGTERM, and its exit.
    public func stop() {
        daemon.signal(SIGTERM)
        _ = daemon.waitForExit()
    }

    /// Milliseconds from `start` to now.
    public static func milliseconds(since start: Date) -> Double {
        Date().timeIntervalSince(start) * 1000
    }

    /// Times in milliseconds as the tests print them: `12 ms, 9 ms`.
    public static func summary(_ latencies: [Double]) -> String {
        latencies.map { String(format: "%.0f ms", $0) }.joined(separator: ", ")
    }

    /// A config that starts in `desktop` (the click is BTN_LEFT), with the profiles `shooter`
    /// (BTN_SOUTH) for the applications `shooter` lists and `notes` (KEY_ENTER) for those of `notes`.
    public static func config(shooter: [String], notes: [String]) -> String {
        func list(_ applications: [String]) -> String { "[" + applications.map { "\"\($0)\"" }.joined(separator: ", ") + "]" }
        let profiles = [("desktop", "BTN_LEFT", nil), ("shooter", "BTN_SOUTH", shooter), ("notes", "KEY_ENTER", notes)]
        return "[bridge]\nprofile = \"desktop\"\n" + profiles.map { name, click, applications in
            "\n[profile.\(name)]\nclick = \"\(click)\"\n" + (applications.map { "applications = \(list($0))\n" } ?? "")
        }.joined()
    }

    /// The profiles for the windows `FocusDesktop.client` opens: `xonotic-sdl` (`shooter`),
    /// `notes-app` (`notes`), anything else `desktop`.
    public static let clientsConfig = config(shooter: ["xonotic*"], notes: ["Notes-App"])

    /// The profiles for the X11 programs the KWin and GNOME tests open: xmessage (`shooter`) and
    /// xfontsel (`notes`).
    public static let x11ProgramsConfig = config(shooter: ["xmessage"], notes: ["XFontSel"])

    /// The daemon in `session`, as its user, on the session's bus (`--bus session`), its control
    /// socket in the session's runtime directory; checked to start in `desktop` with its D-Bus API up.
    public static func start(in session: some SessionDesktop, directory: String,
                             sourceLocation: SourceLocation = #_sourceLocation) throws -> FollowingBridge {
        let bridge = try FollowingBridge(directory: directory, socket: session.runtime + "/control", extra: ["--bus", "session"]) {
            try session.run($0, name: "bridge")
        }
        let daemon = bridge.daemon
        #expect(bridge.waitForProfile("desktop"), "\(daemon.stderr)", sourceLocation: sourceLocation)
        #expect(daemon.waitFor { daemon.stderr.contains("D-Bus API on the session bus") }, "\(daemon.stderr)", sourceLocation: sourceLocation)
        return bridge
    }

    /// Waits up to `timeout` seconds for the log to show more switches to `name` than `count`
    /// (what `switches(to:)` said before).
    public func waitForSwitch(to name: String, moreThan count: Int, timeout: TimeInterval) -> Bool {
        daemon.waitFor(timeout: timeout) { switches(to: name) > count }
    }

    /// What `follow-focus` does on a desktop whose windows the test focuses (X11, wlroots): the
    /// daemon replaying in `directory` (its config written, with `desktop` for what no profile
    /// lists, `shooter` for `xonotic-sdl` and `notes` for `notes-app`) starts in `desktop`;
    /// `follow-focus` says `followerSays`; each focus change switches the profile, within 10 s;
    /// a window no profile lists brings `desktop` back; the follower still runs at the end.
    /// Returns the times from each focus change to the switch, as seen through the socket.
    public static func checkProfileFollowsFocus(on desktop: some FocusDesktop, directory: String, followerSays: String,
                                                sourceLocation: SourceLocation = #_sourceLocation) throws -> [Double] {
        let bridge = try FollowingBridge(directory: directory, socket: directory + "/control")
        defer { bridge.stop() }
        #expect(bridge.waitForProfile("desktop"), "\(bridge.daemon.stderr)", sourceLocation: sourceLocation)
        let game = try desktop.client("xonotic-sdl")
        let notes = try desktop.client("notes-app")
        defer { game.stop(); notes.stop() }

        let followerDirectory = directory + "/follower"
        try FileManager.default.createDirectory(atPath: followerDirectory, withIntermediateDirectories: true)
        let follower = try RunningBinary(["follow-focus", "--socket", bridge.socket], directory: followerDirectory,
                                         environment: desktop.environment)
        defer {
            follower.signal(SIGKILL)
            _ = follower.waitForExit()
        }
        #expect(follower.waitFor { follower.stderr.contains(followerSays) }, "\(follower.stderr)", sourceLocation: sourceLocation)

        var latencies: [Double] = []
        for (window, expected) in [("xonotic-sdl", "shooter"), ("notes-app", "notes"), ("xonotic-sdl", "shooter")] {
            try desktop.focus(window)
            let focused = Date()
            #expect(bridge.waitForProfile(expected, timeout: 10),
                    "\(window): \(bridge.profile)\n\(follower.stderr)\n\(bridge.daemon.stderr)", sourceLocation: sourceLocation)
            latencies.append(milliseconds(since: focused))
        }
        // A window no profile lists: the profile from before the first automatic switch.
        let other = try desktop.client("unlisted")
        defer { other.stop() }
        try desktop.focus("unlisted")
        #expect(bridge.waitForProfile("desktop", timeout: 10), "\(bridge.profile)", sourceLocation: sourceLocation)
        #expect(follower.process.isRunning, "\(follower.stderr)", sourceLocation: sourceLocation)
        return latencies
    }
}
