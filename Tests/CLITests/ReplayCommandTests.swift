import Foundation
import TestSupport
import Testing

/// `replay` against the built binary: the same events as the in-process golden files, file errors
/// with positions, config errors with exit 2.
@Suite("replay command", .requires(BuiltBinary.exists, "the daydream-bridge binary is not built"))
struct ReplayCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The events of one `## CONFIG PROFILE` section of a golden file.
    static func goldenSection(_ recording: String, config: String, profile: String) throws -> String {
        let text = try String(contentsOf: root.appendingPathComponent("Tests/BridgeToolsTests/Golden/replay-\(recording).events"), encoding: .utf8)
        let sections = text.components(separatedBy: "\n## ")
        let section = try #require(sections.first { $0.hasPrefix("\(config) \(profile)\n") })
        return section.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
            .filter { !$0.isEmpty }.map { $0 + "\n" }.joined()
    }

    @Test(arguments: [("buttons", "default.toml", "gamepad"), ("touch", "mouse.toml", "mouse"), ("disconnect", "default.toml", "mouse")])
    func printsTheGoldenEvents(recording: String, config: String, profile: String) throws {
        let result = try BuiltBinary.run([
            "replay", Self.root.appendingPathComponent("Tests/Recordings/\(recording).recording").path, "--fast",
            "--config", Self.root.appendingPathComponent("config/\(config)").path, "--profile", profile,
        ])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == (try Self.goldenSection(recording, config: config, profile: profile)))
    }

    @Test func recordedSpeedTakesTheRecordingsTime() throws {
        let scratch = try TemporaryDirectory(prefix: "daydream-replay")
        defer { withExtendedLifetime(scratch) {} }
        let path = scratch.path("test.recording")
        try "# daydream-bridge recording v1\n0.0 connected\n0.4 disconnected\n".save(toFile: path)
        let started = Date()
        let result = try BuiltBinary.run(["replay", path, "--print"])
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 0)
        #expect(elapsed >= 0.4)
    }

    @Test func aBadRecordingNamesEveryBadLine() throws {
        let scratch = try TemporaryDirectory(prefix: "daydream-replay")
        defer { withExtendedLifetime(scratch) {} }
        let path = scratch.path("test.recording")
        try "# daydream-bridge recording v1\n0.1 12\nbattery x\n".save(toFile: path)
        let result = try BuiltBinary.run(["replay", path, "--fast"])
        #expect(result.status == 1)
        #expect(result.stderr == "\(path):2:5: a packet is 20 bytes (40 hex digits); this one has 2 digits\n"
            + "\(path):3:9: battery is a percentage, 0 to 100, not 'x'\n")
        let missing = try BuiltBinary.run(["replay", "/nonexistent.recording"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "Error: cannot read /nonexistent.recording: No such file or directory\n")
    }

    @Test func aBrokenConfigExitsTwo() throws {
        let scratch = try TemporaryDirectory(prefix: "daydream-replay")
        defer { withExtendedLifetime(scratch) {} }
        let config = scratch.path("test.toml")
        try "[profile.x]\nclik = \"BTN_SOUTH\"\n".save(toFile: config)
        let result = try BuiltBinary.run([
            "replay", Self.root.appendingPathComponent("Tests/Recordings/buttons.recording").path, "--config", config,
        ])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("\(config):2:1: error:"))
    }
}
