import Foundation
import Glibc
import TestSupport
import Testing

/// The editor page's controllers panel API (`/api/controllers...`) as built, through real curl,
/// beside a bridge replaying a controller: the list comes from the bridge's control socket, a
/// profile switch and a recentre are the bridge's commands, the page's rules (cookie, Origin)
/// hold for each change, and a bridge that plays a recording refuses to pair in its own words.
@Suite("ui controllers", .serialized, .requires(BuiltBinary.exists && FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"),
                                                "needs the built binary and curl"))
struct UIControllersTests {
    static let config = """
    [profile.pad]
    click = "BTN_SOUTH"

    [profile.keys]
    click = "KEY_SPACE"

    """

    /// `ui` on the control socket `socket`: its base address and the session's cookie.
    static func startUI(socket: String, scratch: TemporaryDirectory) throws -> (RunningBinary, String, String) {
        let ui = try RunningBinary(["ui", "--no-open", "--listen", "127.0.0.1:0", "--config", scratch.path("config.toml"), "--socket", socket],
                                   directory: scratch.path)
        #expect(ui.waitFor { ui.stdout.contains("?token=") }, "\(ui.stderr)")
        let url = try #require(ui.stdout.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        let base = try #require(url.range(of: "/?token=").map { String(url[..<$0.lowerBound]) })
        return (ui, base, try UICommandTests.session(url, scratch: scratch))
    }

    @Test func thePanelListsSwitchesAndRecentresThroughTheBridge() throws {
        let scratch = try RunCommandTests.makeDirectory()
        try Self.config.save(toFile: scratch.path("config.toml"))
        let socket = scratch.path("control")
        let recording = ReplayCommandTests.root.appendingPathComponent("Tests/Recordings/buttons.recording").path
        let daemon = try RunningBinary(["run", "--replay", recording, "--print", "--socket", socket, "--config", scratch.path("config.toml")],
                                       directory: scratch.path)
        defer { daemon.signal(SIGTERM); _ = daemon.waitForExit() }
        #expect(daemon.waitFor { daemon.stderr.contains("controller connected") }, "\(daemon.stderr)")
        let (ui, base, cookie) = try Self.startUI(socket: socket, scratch: scratch)
        defer { ui.signal(SIGTERM); _ = ui.waitForExit() }
        let origin = ["-H", "Origin: \(base)", "-H", cookie]

        let list = try UICommandTests.fetch(["-H", cookie, base + "/api/controllers"], scratch: scratch)
        #expect(list.status == 200, "\(list)")
        #expect(list.body.hasPrefix("{\"bridge\": true, \"controllers\": [{\"address\": \"C0:DD:EE:00:00:01\", \"name\": null, \"connected\": true, \"battery\": 90"),
                "\(list.body)")
        #expect(list.body.contains("\"firmware\": \"scenario\", \"profile\": \"pad\"}]"), "\(list.body)")
        #expect(list.body.hasSuffix("\"profiles\": [\"pad\", \"keys\"], \"activeProfile\": \"pad\"}"), "\(list.body)")

        // A change needs the page's Origin, and goes to the bridge as its command.
        let foreign = try UICommandTests.fetch(["-H", cookie, "--data", "address=C0:DD:EE:00:00:01&profile=keys",
                                                base + "/api/controllers/profile"], scratch: scratch)
        #expect(foreign.status == 403)
        let switched = try UICommandTests.fetch(origin + ["--data", "address=C0:DD:EE:00:00:01&profile=keys",
                                                          base + "/api/controllers/profile"], scratch: scratch)
        #expect(switched.status == 200 && switched.body.contains("C0:DD:EE:00:00:01: keys"), "\(switched)")
        let listed = try UICommandTests.fetch(["-H", cookie, base + "/api/controllers"], scratch: scratch)
        #expect(listed.body.contains("\"profile\": \"keys\"}"), "\(listed.body)")
        let unknown = try UICommandTests.fetch(origin + ["--data", "address=C0:DD:EE:00:00:01&profile=nope",
                                                         base + "/api/controllers/profile"], scratch: scratch)
        #expect(unknown.status == 409 && unknown.body == "no profile 'nope'; profiles: pad, keys\n", "\(unknown)")
        let spaced = try UICommandTests.fetch(origin + ["--data", "address=C0:DD:EE:00:00:01&profile=a%20b",
                                                        base + "/api/controllers/profile"], scratch: scratch)
        #expect(spaced.status == 400, "\(spaced)")
        let recentred = try UICommandTests.fetch(origin + ["--data", "address=C0:DD:EE:00:00:01", base + "/api/controllers/recenter"],
                                                 scratch: scratch)
        #expect(recentred.status == 200, "\(recentred)")
        #expect(try UICommandTests.fetch(["-H", cookie, base + "/api/controllers/recenter"], scratch: scratch).status == 405)

        // Streamed: the bridge's reply as line events, then end. This bridge plays a recording.
        let pair = try UICommandTests.fetch(origin + ["-N", "--data", "", base + "/api/controllers/pair"], scratch: scratch)
        #expect(pair.status == 200, "\(pair)")
        #expect(pair.body.hasPrefix("event: line\ndata: error: this bridge reads no Bluetooth (it plays a recording)"), "\(pair.body)")
        #expect(pair.body.hasSuffix("event: end\ndata: \n\n"), "\(pair.body)")
        let forget = try UICommandTests.fetch(origin + ["-N", "--data", "address=C0:DD:EE:00:00:01", base + "/api/controllers/forget"],
                                              scratch: scratch)
        #expect(forget.body.contains("data: error: this bridge reads no Bluetooth"), "\(forget.body)")
    }

    /// `ui --replay` runs its bridge on its own loop: the panel asks it there, not through a
    /// blocking request to its own socket (which waited 2 s for itself and said no bridge answered).
    @Test func theReplaysOwnBridgeIsListedAndSwitched() throws {
        let scratch = try RunCommandTests.makeDirectory()
        try Self.config.save(toFile: scratch.path("config.toml"))
        let recording = ReplayCommandTests.root.appendingPathComponent("Tests/Recordings/buttons.recording").path
        let ui = try RunningBinary(["ui", "--no-open", "--listen", "127.0.0.1:0", "--config", scratch.path("config.toml"), "--replay", recording],
                                   directory: scratch.path, environment: ["XDG_RUNTIME_DIR": scratch.path])
        defer { ui.signal(SIGTERM); _ = ui.waitForExit() }
        #expect(ui.waitFor { ui.stdout.contains("?token=") }, "\(ui.stderr)")
        let url = try #require(ui.stdout.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        let base = try #require(url.range(of: "/?token=").map { String(url[..<$0.lowerBound]) })
        let cookie = try UICommandTests.session(url, scratch: scratch)
        let list = try UICommandTests.fetch(["-H", cookie, base + "/api/controllers"], scratch: scratch)
        #expect(list.status == 200 && list.body.hasPrefix("{\"bridge\": true, \"controllers\": [{\"address\": \"C0:DD:EE:00:00:01\""),
                "\(list.body)")
        let switched = try UICommandTests.fetch(["-H", "Origin: \(base)", "-H", cookie, "--data", "address=C0:DD:EE:00:00:01&profile=keys",
                                                 base + "/api/controllers/profile"], scratch: scratch)
        #expect(switched.status == 200 && switched.body.contains("C0:DD:EE:00:00:01: keys"), "\(switched)")
    }

    @Test func withoutABridgeThePanelSaysHowToStartOne() throws {
        let scratch = try RunCommandTests.makeDirectory()
        try Self.config.save(toFile: scratch.path("config.toml"))
        let (ui, base, cookie) = try Self.startUI(socket: scratch.path("no-bridge"), scratch: scratch)
        defer { ui.signal(SIGTERM); _ = ui.waitForExit() }
        let list = try UICommandTests.fetch(["-H", cookie, base + "/api/controllers"], scratch: scratch)
        #expect(list.status == 200 && list.body.hasPrefix("{\"bridge\": false, \"advice\": \"No bridge is running: start it with "
            + "'systemctl --user start daydream-bridge'"), "\(list)")
        let origin = ["-H", "Origin: \(base)", "-H", cookie]
        let recentred = try UICommandTests.fetch(origin + ["--data", "address=C0:DD:EE:00:00:01", base + "/api/controllers/recenter"],
                                                 scratch: scratch)
        #expect(recentred.status == 503 && recentred.body.hasPrefix("No bridge is running"), "\(recentred)")
        let pair = try UICommandTests.fetch(origin + ["-N", "--data", "", base + "/api/controllers/pair"], scratch: scratch)
        #expect(pair.body.hasPrefix("event: line\ndata: error: No bridge is running"), "\(pair.body)")
    }
}
