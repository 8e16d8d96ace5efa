import Foundation
import Glibc
import TestSupport
import Testing

/// `daydream-bridge ui` as built, beside a bridge replaying a controller: the page and its API
/// through real curl: the token is needed, the bridge's watch stream arrives as events, and a
/// setting saved from the page changes only its own bytes, after which the bridge emits it.
@Suite("ui", .serialized, .requires(BuiltBinary.exists && FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"),
                                   "needs the built binary and curl"))
struct UICommandTests {
    static let config = """
    # My mapping: the comments and the blank lines below stay as they are.
    [profile.pad]
    click = "BTN_SOUTH"   # jump
    app = "BTN_EAST"

    """

    /// curl's status code and body.
    static func fetch(_ arguments: [String], scratch: TemporaryDirectory) throws -> (status: Int, body: String) {
        let output = scratch.path("curl-\(UUID().uuidString)")
        let tool = try RunningBinary(program: "/usr/bin/curl", ["-s", "-o", output, "-w", "%{http_code}"] + arguments,
                                     directory: scratch.path, name: "curl")
        _ = tool.waitForExit(timeout: 10)
        return (Int(tool.stdout) ?? 0, (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
    }

    @Test func thePageWatchesTheBridgeAndSavesASettingInPlace() throws {
        let scratch = try RunCommandTests.makeDirectory()
        try Self.config.save(toFile: scratch.path("config.toml"))
        let socket = scratch.path("control")
        let daemon = try RunningBinary(["run", "--replay", ReplayCommandTests.root.appendingPathComponent("Tests/Recordings/buttons.recording").path,
                                        "--print", "--socket", socket, "--config", scratch.path("config.toml")], directory: scratch.path)
        defer { daemon.signal(SIGTERM); _ = daemon.waitForExit() }
        #expect(daemon.waitFor { daemon.stderr.contains("controller connected") }, "\(daemon.stderr)")

        let ui = try RunningBinary(["ui", "--no-open", "--listen", "127.0.0.1:0", "--config", scratch.path("config.toml"), "--socket", socket],
                                   directory: scratch.path)
        defer { ui.signal(SIGTERM); _ = ui.waitForExit() }
        #expect(ui.waitFor { ui.stdout.contains("?token=") }, "\(ui.stderr)")
        let url = try #require(ui.stdout.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        let base = try #require(url.range(of: "/?token=").map { String(url[..<$0.lowerBound]) })
        let token = try #require(url.range(of: "?token=").map { String(url[$0.upperBound...]) })
        #expect(token.count == 32)

        let page = try Self.fetch([url], scratch: scratch)
        #expect(page.status == 200 && page.body.contains("<title>daydream-bridge: mapping</title>"), "\(page)")
        #expect(try Self.fetch([base + "/"], scratch: scratch).status == 403)
        let config = try Self.fetch([base + "/api/config?token=" + token], scratch: scratch)
        #expect(config.status == 200 && config.body.contains("\"text\": \"# My mapping"), "\(config)")
        // The outline: each setting as written (the comment after it left out) and as parsed, with its place.
        #expect(config.body.contains(
            "{\"key\": \"click\", \"text\": \"\\\"BTN_SOUTH\\\"\", \"value\": \"BTN_SOUTH\", \"line\": 3, \"column\": 9}"), "\(config)")

        // The bridge's watch stream, as events: which bridge, then its controller's lines.
        let events = try RunningBinary(program: "/usr/bin/curl", ["-s", "-N", base + "/api/events?token=" + token],
                                       directory: scratch.path, name: "events")
        defer { events.signal(SIGKILL) }
        #expect(events.waitFor(timeout: 10) { events.stdout.contains("event: bridge\ndata: \(socket)") && events.stdout.contains("profile pad") },
                "\(events.stdout)")

        // A setting from the page: only its value changes; an invalid one is refused with its place.
        let origin = ["-H", "Origin: \(base)"]
        let bad = try Self.fetch(origin + ["--data", "profile=pad&key=app&value=%22KEY_SPAC%22", base + "/api/setting?token=" + token], scratch: scratch)
        #expect(bad.status == 422 && bad.body.contains("\"line\": 4, \"column\": 7") && bad.body.contains("did you mean KEY_SPACE?"), "\(bad)")
        #expect(try String(contentsOfFile: scratch.path("config.toml"), encoding: .utf8) == Self.config)
        let saved = try Self.fetch(origin + ["--data", "profile=pad&key=app&value=%22KEY_SPACE%22", base + "/api/setting?token=" + token],
                                   scratch: scratch)
        #expect(saved.status == 200, "\(saved)")
        #expect(try String(contentsOfFile: scratch.path("config.toml"), encoding: .utf8)
            == Self.config.replacingOccurrences(of: "app = \"BTN_EAST\"", with: "app = \"KEY_SPACE\""))
        let check = try BuiltBinary.run(["check-config", scratch.path("config.toml")])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(daemon.waitFor(timeout: 10) { daemon.stderr.contains("config reloaded") }, "\(daemon.stderr)")
    }

    /// `ui --replay`: the page's own bridge plays the recording with the config being edited, its
    /// packets decoded for the page, its output events as lines; the token's cookie lets the
    /// page's files load; the vocabulary lists each code with its device.
    @Test func replayRunsABridgeOfItsOwnAndTheCookieCarriesTheToken() throws {
        let scratch = try RunCommandTests.makeDirectory()
        try Self.config.save(toFile: scratch.path("config.toml"))
        let recording = ReplayCommandTests.root.appendingPathComponent("Tests/Recordings/editor-tour.recording").path
        let ui = try RunningBinary(["ui", "--no-open", "--listen", "127.0.0.1:0", "--config", scratch.path("config.toml"), "--replay", recording],
                                   directory: scratch.path, environment: ["XDG_RUNTIME_DIR": scratch.path])
        defer { ui.signal(SIGTERM); _ = ui.waitForExit() }
        #expect(ui.waitFor { ui.stdout.contains("?token=") }, "\(ui.stderr)")
        let url = try #require(ui.stdout.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        let base = try #require(url.range(of: "/?token=").map { String(url[..<$0.lowerBound]) })
        let token = try #require(url.range(of: "?token=").map { String(url[$0.upperBound...]) })
        let port = try #require(base.split(separator: ":").last)

        // The first load sets the cookie; with it alone the page's files load; a wrong one is refused.
        let headers = scratch.path("headers")
        #expect(try Self.fetch(["-D", headers, url], scratch: scratch).status == 200)
        let cookie = "daydream-token-\(port)=\(token)"
        #expect(try String(contentsOfFile: headers, encoding: .utf8).contains("Set-Cookie: \(cookie); Path=/; HttpOnly; SameSite=Strict"))
        let withCookie = try Self.fetch(["-H", "Cookie: other=1; \(cookie)", base + "/index.html"], scratch: scratch)
        #expect(withCookie.status == 200 && withCookie.body.contains("<title>daydream-bridge"), "\(withCookie)")
        #expect(try Self.fetch(["-H", "Cookie: daydream-token-\(port)=\(String(token.reversed()))", base + "/index.html"], scratch: scratch).status == 403)

        let vocabulary = try Self.fetch([base + "/api/vocabulary?token=" + token], scratch: scratch)
        for entry in ["[\"KEY_SPACE\", \"keyboard\"]", "[\"BTN_SOUTH\", \"gamepad\"]", "[\"BTN_LEFT\", \"mouse\"]",
                      "{\"mode\": \"trackpad\", \"options\": [\"speed\", \"acceleration\", \"device\"]}", "\"gyro-calibrate\""] {
            #expect(vocabulary.body.contains(entry), "\(entry) not in \(vocabulary.body.prefix(300))")
        }

        // The replay's own bridge: click decoded as a state, then what the profile makes of app.
        let events = try RunningBinary(program: "/usr/bin/curl", ["-s", "-N", base + "/api/events?token=" + token],
                                       directory: scratch.path, name: "events")
        defer { events.signal(SIGKILL) }
        #expect(events.waitFor(timeout: 15) {
            events.stdout.contains("\"buttons\": [\"click\"]") && events.stdout.contains("event gamepad EV_KEY BTN_EAST 1")
        }, "\(events.stdout.suffix(2000))")
        #expect(events.stdout.contains("event: bridge\ndata: \(scratch.path)/daydream-bridge-ui."), "\(events.stdout.prefix(300))")
    }
}
