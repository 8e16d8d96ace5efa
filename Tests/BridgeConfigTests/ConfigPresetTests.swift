import BridgeConfig
import Foundation
import Testing

/// The presets the editor page offers: the files in config/ byte for byte, each a config the
/// checker passes, each with a profile to add, and made into a new file never over one.
@Suite("config presets")
struct ConfigPresetTests {
    @Test("the page offers the seven presets the issue names, in order")
    func theSevenPresets() {
        #expect(ConfigPreset.all.map(\.title) == ["Gamepad", "Mouse", "Presenter", "Media remote", "Gyro shooter", "Emulator with DSU", "TV / Kodi"])
        #expect(ConfigPreset.all.map(\.profile) == ["gamepad", "mouse", "presenter", "media", "shooter", "emulator", "tv"])
        #expect(ConfigPreset.named("gamepad")?.summary == "A gamepad for games.")
        #expect(ConfigPreset.named("tv")?.summary == "A TV remote for Kodi (and other living-room front ends that read a gamepad's d-pad).")
    }

    @Test("each preset is its file in config/, byte for byte", arguments: ConfigPreset.all.map(\.name))
    func matchesItsFile(name: String) throws {
        let preset = try #require(ConfigPreset.named(name))
        let file = try RepositoryFiles.bytes(RepositoryFiles.config.appendingPathComponent(preset.file))
        #expect(Array(preset.text.utf8) == file, "run scripts/generate-presets")
    }

    @Test("each preset passes the config checker", arguments: ConfigPreset.all.map(\.name))
    func passesTheChecker(name: String) throws {
        let preset = try #require(ConfigPreset.named(name))
        do {
            let loaded = try ConfigLoader.load(Array(preset.text.utf8), from: .file(preset.file))
            #expect(loaded.configuration.profiles.contains { $0.name == preset.profile })
        } catch {
            Issue.record("\(preset.file): \(error)")
        }
    }

    @Test("a preset makes the file and its directories, and never replaces a file")
    func createsButNeverOverwrites() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("presets-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("config/daydream-bridge/config.toml").path
        let gamepad = try #require(ConfigPreset.named("gamepad"))
        try gamepad.create(at: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == gamepad.text)
        let made = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("config/daydream-bridge").path)
        #expect((made[.posixPermissions] as? Int) == 0o700)
        let mouse = try #require(ConfigPreset.named("mouse"))
        #expect(throws: ConfigPreset.CreationFailure.self) { try mouse.create(at: path) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == gamepad.text)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("config/daydream-bridge").path)
        #expect(left == ["config.toml"], "no temporary file is left behind")
    }
}
