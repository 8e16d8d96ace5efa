import Foundation
import Glibc
import TestSupport
import Testing

/// `daydream-bridge ui` without a config, through real curl: the page is told where a config
/// would go, makes it from a preset (only with the session's cookie and the page's Origin, and
/// never over a file), and then adds, copies, renames and removes profiles in it.
@Suite("ui presets", .serialized, .requires(BuiltBinary.exists && FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"),
                                           "needs the built binary and curl"))
struct UIPresetTests {
    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/etc/daydream-bridge/config.toml"),
                   "a system-wide config would be the one ui edits"))
    func aFirstRunMakesTheConfigFromAPresetAndEditsItsProfiles() throws {
        let scratch = try RunCommandTests.makeDirectory()
        let configHome = scratch.path("xdg")
        let path = configHome + "/daydream-bridge/config.toml"
        let ui = try RunningBinary(["ui", "--no-open", "--listen", "127.0.0.1:0"], directory: scratch.path,
                                   environment: ["XDG_CONFIG_HOME": configHome, "HOME": scratch.path, "XDG_RUNTIME_DIR": scratch.path])
        defer { ui.signal(SIGTERM); _ = ui.waitForExit() }
        #expect(ui.waitFor { ui.stdout.contains("?token=") }, "\(ui.stderr)")
        let url = try #require(ui.stdout.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        let base = try #require(url.range(of: "/?token=").map { String(url[..<$0.lowerBound]) })
        let cookie = try UICommandTests.session(url, scratch: scratch)
        func fetch(_ arguments: [String]) throws -> (status: Int, body: String) {
            try UICommandTests.fetch(arguments, scratch: scratch)
        }
        let origin = ["-H", "Origin: \(base)", "-H", cookie]

        // No config: the page is told so, and where one would go.
        #expect(try fetch(["-H", cookie, base + "/api/config"]).status == 404)
        let presets = try fetch(["-H", cookie, base + "/api/presets"])
        #expect(presets.status == 200 && presets.body.contains("\"create\": \"\(path)\"") && presets.body.contains("\"title\": \"TV / Kodi\""),
                "\(presets)")

        // Without the session's cookie, or from another page: refused, nothing made.
        #expect(try fetch(["-H", "Origin: \(base)", "--data", "preset=gamepad", base + "/api/create"]).status == 403)
        #expect(try fetch(["-H", cookie, "-H", "Origin: http://example.test", "--data", "preset=gamepad", base + "/api/create"]).status == 403)
        #expect(try fetch(["-H", cookie, "--data", "preset=gamepad", base + "/api/create"]).status == 403)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try fetch(origin + ["--data", "preset=joystick", base + "/api/create"]).status == 400)

        let created = try fetch(origin + ["--data", "preset=gamepad", base + "/api/create"])
        #expect(created.status == 201 && created.body.contains("\"path\": \"\(path)\""), "\(created)")
        let gamepad = try String(contentsOf: ReplayCommandTests.root.appendingPathComponent("config/gamepad.toml"), encoding: .utf8)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == gamepad)
        #expect(try BuiltBinary.run(["check-config", path]).status == 0)
        #expect(try BuiltBinary.run(["check-config"], environment: ["XDG_CONFIG_HOME": configHome]).stdout.contains(path))

        // A file there is never replaced.
        let again = try fetch(origin + ["--data", "preset=mouse", base + "/api/create"])
        #expect(again.status == 409 && again.body.contains("exists already"), "\(again)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == gamepad)
        #expect(try fetch(["-H", cookie, base + "/api/presets"]).body.contains("\"create\": null"))

        // Profiles: each change over the revision the page has, refused without the page's Origin.
        var config = try fetch(["-H", cookie, base + "/api/config"])
        func revision() throws -> String {
            try #require(config.body.range(of: "\"revision\": \"").map { String(config.body[$0.upperBound...].prefix(16)) })
        }
        #expect(try fetch(["-H", cookie, "--data", "action=add&preset=mouse&name=mouse&revision=\(try revision())", base + "/api/profile"]).status == 403)
        config = try fetch(origin + ["--data", "action=add&preset=mouse&name=mouse&revision=\(try revision())", base + "/api/profile"])
        #expect(config.status == 200, "\(config)")
        var text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix(gamepad + "\n[profile.mouse]\ntouchpad = { mode = \"trackpad\", speed = 1.5, acceleration = 1.3 }\n"), "\(text)")
        let stale = try fetch(origin + ["--data", "action=remove&profile=racing&revision=0000000000000000", base + "/api/profile"])
        #expect(stale.status == 409 && stale.body.contains("changed since it was loaded"), "\(stale)")

        config = try fetch(origin + ["--data", "action=copy&profile=mouse&name=desk&revision=\(try revision())", base + "/api/profile"])
        #expect(config.status == 200, "\(config)")
        text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\n[profile.desk]\n") && text.contains("\n[profile.desk.chords]\n"))
        config = try fetch(origin + ["--data", "action=rename&profile=desk&name=office&revision=\(try revision())", base + "/api/profile"])
        #expect(config.status == 200, "\(config)")
        let renamed = try String(contentsOfFile: path, encoding: .utf8)
        #expect(renamed == text.replacingOccurrences(of: "[profile.desk", with: "[profile.office"))
        let start = try fetch(origin + ["--data", "action=remove&profile=gamepad&revision=\(try revision())", base + "/api/profile"])
        #expect(start.status == 409 && start.body.contains("[bridge] profile"), "\(start)")
        config = try fetch(origin + ["--data", "action=remove&profile=office&revision=\(try revision())", base + "/api/profile"])
        #expect(config.status == 200, "\(config)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text.components(separatedBy: "\n[profile.desk]\n")[0])
        #expect(try BuiltBinary.run(["check-config", path]).status == 0)
    }
}
