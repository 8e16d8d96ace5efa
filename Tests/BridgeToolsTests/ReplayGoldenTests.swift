@testable import Bridge
@testable import BridgeTools
import BridgeConfig
import Foundation
import Mapping
import Recording
import TestSupport
import Testing
import Timebase
import VirtualDevice

/// Every scenario recording replayed through every shipped profile gives exactly the golden events.
@Suite("replay golden events")
@MainActor
struct ReplayGoldenTests {
    static let configDirectory = Golden.testsDirectory.deletingLastPathComponent().appendingPathComponent("config")
    /// Every `config/*.toml`, the examples `make install` ships.
    static let configFiles = ((try? FileManager.default.contentsOfDirectory(atPath: configDirectory.path)) ?? [])
        .filter { $0.hasSuffix(".toml") }.sorted()

    @Test func everyShippedConfigIsReplayed() {
        #expect(Self.configFiles.count >= 9, "\(Self.configFiles)")
    }

    static func load(_ file: String) throws -> MappingConfiguration {
        try ConfigLoader.load(.file(configDirectory.appendingPathComponent(file).path)).configuration
    }

    /// Replays `recording` in `profile`, returning the lines `replay --print` prints, every event
    /// also checked by a recording `VirtualDeviceSet` (the devices' own rules) and the devices left at rest.
    static func replayLines(_ recording: Recording, _ configuration: MappingConfiguration, profile: String) throws -> [String] {
        let output = CollectingOutput()
        let replay = Replay(recording: recording, configuration: configuration, profileName: profile, output: output)
        replay.run()
        let sink = try VirtualDeviceSet.recording(capabilities: configuration.capabilities, gamepadIdentity: configuration.gamepadIdentity)
        try sink.send(output.events)
        for kind in sink.kinds {
            #expect(sink.state(kind)?.isAtRest == true, "\(kind) not at rest after the replay in \(profile)")
        }
        return output.entries.map { EventLineSink.line($0.event, at: $0.time) }
    }

    /// Recordings made by a rig rather than `Scenarios`, replayed the same way: the Gear VR's
    /// (Tests/e2e/timelines/gear-vr-tour.tl through the emulated controller).
    nonisolated static let rigRecordings = ["gear-vr"]

    @Test(arguments: Scenarios.all.map(\.name) + rigRecordings)
    func goldenEvents(recordingName: String) throws {
        let url = Golden.recordingsDirectory.appendingPathComponent("\(recordingName).recording")
        let recording = try RecordingParser.parse(String(contentsOf: url, encoding: .utf8))
        var text = "# \(recordingName).recording replayed through each profile of config/*.toml\n"
        for file in Self.configFiles {
            let configuration = try Self.load(file)
            for profile in configuration.profiles {
                text += "\n## \(file) \(profile.name)\n"
                for line in try Self.replayLines(recording, configuration, profile: profile.name) { text += line + "\n" }
            }
        }
        GoldenFile.check(text, against: Golden.goldenDirectory.appendingPathComponent("replay-\(recordingName).events"))
    }
}
