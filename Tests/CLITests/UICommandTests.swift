import Foundation
import Glibc
import TestSupport
import Testing

/// `daydream-bridge ui` as built, beside a bridge replaying a controller: the page and its API
/// through real curl: the one-time address buys the session cookie that is needed, the
/// bridge's watch stream arrives as events, and a setting saved from the page changes only its
/// own bytes, after which the bridge emits it.
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

    /// The printed one-time address opened as a browser does on its first load: `Cookie: ...`
    /// for curl's `-H`, the session's cookie it set.
    static func session(_ url: String, scratch: TemporaryDirectory) throws -> String {
        let headers = scratch.path("headers-\(UUID().uuidString)")
        let first = try fetch(["-D", headers, url], scratch: scratch)
        #expect(first.status == 200, "\(first)")
        let line = try #require(try String(contentsOfFile: headers, encoding: .utf8).split(separator: "\r\n").first { $0.hasPrefix("Set-Cookie: ") })
        return "Cookie: " + (line.dropFirst("Set-Cookie: ".count).split(separator: ";").first.map(String.init) ?? "")
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

        let cookie = try Self.session(url, scratch: scratch)
        let page = try Self.fetch(["-H", cookie, base + "/"], scratch: scratch)
        #expect(page.status == 200 && page.body.contains("<title>daydream-bridge: mapping</title>"), "\(page)")
        #expect(try Self.fetch([base + "/"], scratch: scratch).status == 403)
        let config = try Self.fetch(["-H", cookie, base + "/api/config"], scratch: scratch)
        #expect(config.status == 200 && config.body.contains("\"text\": \"# My mapping"), "\(config)")
        // The outline: each setting as written (the comment after it left out) and as parsed, with its place.
        #expect(config.body.contains(
            "{\"key\": \"click\", \"text\": \"\\\"BTN_SOUTH\\\"\", \"value\": \"BTN_SOUTH\", \"line\": 3, \"column\": 9}"), "\(config)")

        // The bridge's watch stream, as events: which bridge, then its controller's lines.
        let events = try RunningBinary(program: "/usr/bin/curl", ["-s", "-N", "-H", cookie, base + "/api/events"],
                                       directory: scratch.path, name: "events")
        defer { events.signal(SIGKILL) }
        #expect(events.waitFor(timeout: 10) { events.stdout.contains("event: bridge\ndata: \(socket)") && events.stdout.contains("profile pad") },
                "\(events.stdout)")

        // A setting from the page: only its value changes; an invalid one is refused with its place.
        let revision = try #require(config.body.range(of: "\"revision\": \"").map { String(config.body[$0.upperBound...].prefix(16)) })
        let origin = ["-H", "Origin: \(base)", "-H", cookie]
        let bad = try Self.fetch(origin + ["--data", "profile=pad&key=app&value=%22KEY_SPAC%22&revision=" + revision, base + "/api/setting"], scratch: scratch)
        #expect(bad.status == 422 && bad.body.contains("\"line\": 4, \"column\": 7") && bad.body.contains("did you mean KEY_SPACE?"), "\(bad)")
        // A syntax slip (a code without quotes) comes back in the page's words, toml++'s kept beside them.
        let slip = try Self.fetch(origin + ["--data", "profile=pad&key=app&value=KEY_SPACE&revision=" + revision, base + "/api/setting"], scratch: scratch)
        #expect(slip.status == 422 && slip.body.contains("\"line\": 4, \"column\": 7") && slip.body.contains("needs quotes (\\\"KEY_SPACE\\\")")
            && slip.body.contains("\"syntax\": true") && slip.body.contains("\"parser\": \"TOML syntax: Error while parsing value: could not determine value type\""),
            "\(slip)")
        #expect(try String(contentsOfFile: scratch.path("config.toml"), encoding: .utf8) == Self.config)
        let twoLines = try Self.fetch(origin + ["--data", "profile=pad&key=click&value=%22BTN_SOUTH%22%0A%5Bprofile.other%5D&revision=" + revision, base + "/api/setting"],
                                      scratch: scratch)
        #expect(twoLines.status == 400 && twoLines.body.contains("one line of text"), "\(twoLines)")
        #expect(try String(contentsOfFile: scratch.path("config.toml"), encoding: .utf8) == Self.config)
        let saved = try Self.fetch(origin + ["--data", "profile=pad&key=app&value=%22KEY_SPACE%22&revision=" + revision, base + "/api/setting"],
                                   scratch: scratch)
        #expect(saved.status == 200, "\(saved)")
        #expect(try String(contentsOfFile: scratch.path("config.toml"), encoding: .utf8)
            == Self.config.replacingOccurrences(of: "app = \"BTN_EAST\"", with: "app = \"KEY_SPACE\""))
        // A save against the revision the page had before that one lost the race: refused.
        let stale = try Self.fetch(origin + ["--data", "profile=pad&key=click&value=%22KEY_A%22&revision=" + revision, base + "/api/setting"],
                                   scratch: scratch)
        #expect(stale.status == 409 && stale.body.contains("changed since it was loaded"), "\(stale)")
        #expect(try String(contentsOfFile: scratch.path("config.toml"), encoding: .utf8)
            == Self.config.replacingOccurrences(of: "app = \"BTN_EAST\"", with: "app = \"KEY_SPACE\""))
        let check = try BuiltBinary.run(["check-config", scratch.path("config.toml")])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(daemon.waitFor(timeout: 10) { daemon.stderr.contains("config reloaded") }, "\(daemon.stderr)")
        // The page hears the bridge's reload as the bridge's own watch line.
        #expect(events.waitFor(timeout: 10) {
            events.stdout.split(separator: "\n").contains { $0.hasPrefix("data: bridge ") && $0.hasSuffix(" config reloaded") }
        }, "\(events.stdout.suffix(500))")
    }

    /// `ui --replay`: the page's own bridge plays the recording with the config being edited, its
    /// packets decoded for the page, its output events as lines; the session cookie lets the
    /// page's files load; the vocabulary lists each code with its device.
    @Test func replayRunsABridgeOfItsOwnAndTheCookieCarriesTheSession() throws {
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
        let cookie = try Self.session(url, scratch: scratch)
        #expect(cookie.hasPrefix("Cookie: daydream-session-\(port)=") && !cookie.contains(token))
        let withCookie = try Self.fetch(["-H", "Cookie: other=1; " + cookie.dropFirst("Cookie: ".count), base + "/index.html"], scratch: scratch)
        #expect(withCookie.status == 200 && withCookie.body.contains("<title>daydream-bridge"), "\(withCookie)")
        #expect(try Self.fetch(["-H", "Cookie: daydream-session-\(port)=\(token)", base + "/index.html"], scratch: scratch).status == 403)

        let vocabulary = try Self.fetch(["-H", cookie, base + "/api/vocabulary"], scratch: scratch)
        for entry in ["[\"KEY_SPACE\", \"keyboard\"]", "[\"BTN_SOUTH\", \"gamepad\"]", "[\"BTN_LEFT\", \"mouse\"]",
                      "{\"mode\": \"trackpad\", \"options\": [\"speed\", \"acceleration\", \"device\"]}", "\"gyro-calibrate\""] {
            #expect(vocabulary.body.contains(entry), "\(entry) not in \(vocabulary.body.prefix(300))")
        }

        // The replay's own bridge: click decoded as a state, then what the profile makes of app.
        let events = try RunningBinary(program: "/usr/bin/curl", ["-s", "-N", "-H", cookie, base + "/api/events"],
                                       directory: scratch.path, name: "events")
        defer { events.signal(SIGKILL) }
        #expect(events.waitFor(timeout: 15) {
            events.stdout.contains("\"buttons\": [\"click\"]") && events.stdout.contains("event gamepad EV_KEY BTN_EAST 1")
        }, "\(events.stdout.suffix(2000))")
        #expect(events.stdout.contains("event: bridge\ndata: \(scratch.path)/daydream-bridge-ui."), "\(events.stdout.prefix(300))")
    }

    /// `ui` opens the page through `xdg-open` (a stand-in here, that records its arguments),
    /// whose arguments every local user can read in /proc: they hold no token that lets anyone
    /// in, only a file of the user's own that leads to the page; the file's one-time address and
    /// the printed one each work once, then get 403.
    @Test func xdgOpenIsGivenNoTokenAndEachAddressWorksOnce() throws {
        let scratch = try RunCommandTests.makeDirectory()
        try Self.config.save(toFile: scratch.path("config.toml"))
        try FileManager.default.createDirectory(atPath: scratch.path("bin"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: scratch.path("runtime"), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$0.argv.new\" && mv \"$0.argv.new\" \"$0.argv\"\n".save(toFile: scratch.path("bin/xdg-open"))
        #expect(chmod(scratch.path("bin/xdg-open"), 0o755) == 0)
        let path = scratch.path("bin") + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let ui = try RunningBinary(["ui", "--listen", "127.0.0.1:0", "--config", scratch.path("config.toml")], directory: scratch.path,
                                   environment: ["PATH": path, "XDG_RUNTIME_DIR": scratch.path("runtime")])
        defer { ui.signal(SIGTERM); _ = ui.waitForExit() }
        #expect(ui.waitFor { FileManager.default.fileExists(atPath: scratch.path("bin/xdg-open.argv")) }, "\(ui.stderr)")
        let url = try #require(ui.stdout.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        let base = try #require(url.range(of: "/?token=").map { String(url[..<$0.lowerBound]) })
        let port = try #require(base.split(separator: ":").last)

        // Whatever xdg-open was given is no token and no cookie.
        let arguments = try String(contentsOfFile: scratch.path("bin/xdg-open.argv"), encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(arguments.count == 1 && !arguments[0].contains("token"), "\(arguments)")
        for argument in arguments {
            for word in [argument] + argument.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init) {
                let query = word.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                #expect(try Self.fetch([base + "/?token=" + query], scratch: scratch).status == 403, "\(word)")
                #expect(try Self.fetch(["-H", "Cookie: daydream-session-\(port)=\(query)", base + "/"], scratch: scratch).status == 403, "\(word)")
            }
        }

        // The file it names is the user's alone, and leads to a one-time address of its own.
        let file = try #require(arguments.first)
        var status = stat()
        #expect(stat(file, &status) == 0 && status.st_mode & 0o777 == 0o600 && status.st_uid == geteuid())
        #expect(stat(String(file[..<(file.lastIndex(of: "/") ?? file.endIndex)]), &status) == 0 && status.st_mode & 0o777 == 0o700)
        let page = try String(contentsOfFile: file, encoding: .utf8)
        let opened = try #require(page.range(of: base + "/?token=").map { String(page[$0.lowerBound...].prefix { $0 != "\"" }) })
        #expect(opened != url, "the browser's address and the printed one are not the same")
        for address in [opened, url] {
            let first = try Self.fetch([address], scratch: scratch)
            #expect(first.status == 200 && first.body.contains("url=/"), "\(first)")
            #expect(try Self.fetch([address], scratch: scratch).status == 403, "used once already")
        }
        ui.signal(SIGTERM)
        #expect(ui.waitForExit() == 0, "ui ends cleanly on SIGTERM (under ASan: nothing leaked)")
        #expect(!FileManager.default.fileExists(atPath: file), "the file goes with ui")
    }

}
