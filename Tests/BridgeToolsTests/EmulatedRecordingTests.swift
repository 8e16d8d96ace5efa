@testable import Bridge
import BridgeConfig
import Foundation
import Mapping
import Recording
import TestSupport
import Testing

/// The recordings `daydream-bridge record` made of the emulated controller over real BlueZ
/// (`Tests/e2e/scenarios/s85_record.py`; see `Tests/Recordings/README.md`), replayed through the
/// profiles their timelines were written for: exactly the golden events, and what each timeline means.
@Suite("replay of the emulated controller's recordings")
@MainActor
struct EmulatedRecordingTests {
    /// A profile to replay a recording in: a config file (under `config/`, or beside the recordings) and a profile name.
    struct Target: Sendable {
        let file: String
        let profile: String
        var beside = false

        @MainActor func load() throws -> MappingConfiguration {
            guard beside else { return try ReplayGoldenTests.load(file) }
            return try ConfigLoader.load(.file(Golden.recordingsDirectory.appendingPathComponent(file).path)).configuration
        }
    }

    /// Each recording and the profiles checked against its golden file.
    nonisolated static let targets: [String: [Target]] = [
        "emulated-gamepad": [
            Target(file: "default.toml", profile: "gamepad"), Target(file: "gamepad.toml", profile: "gamepad"),
            Target(file: "gamepad.toml", profile: "racing"),
        ],
        "emulated-mouse": [
            Target(file: "emulated-mouse.toml", profile: "mouse", beside: true),
            Target(file: "default.toml", profile: "mouse"), Target(file: "mouse.toml", profile: "mouse"),
        ],
        "emulated-power-off": [
            Target(file: "default.toml", profile: "gamepad"), Target(file: "default.toml", profile: "mouse"),
        ],
    ]

    static func recording(_ name: String) throws -> (text: String, recording: Recording) {
        let text = try String(contentsOf: Golden.recordingsDirectory.appendingPathComponent("\(name).recording"), encoding: .utf8)
        return (text, try RecordingParser.parse(text))
    }

    /// The `replay --print` lines of `name` in `target`, split into words.
    static func events(_ name: String, _ target: Target) throws -> [[Substring]] {
        try ReplayGoldenTests.replayLines(recording(name).recording, target.load(), profile: target.profile)
            .map { $0.split(separator: " ") }
    }

    @Test(arguments: targets.keys.sorted())
    func goldenEvents(recordingName: String) throws {
        let recording = try Self.recording(recordingName).recording
        var text = "# \(recordingName).recording (made with the emulated controller) replayed\n"
        for target in Self.targets[recordingName] ?? [] {
            text += "\n## \(target.file) \(target.profile)\n"
            for line in try ReplayGoldenTests.replayLines(recording, target.load(), profile: target.profile) {
                text += line + "\n"
            }
        }
        GoldenFile.check(text, against: Golden.goldenDirectory.appendingPathComponent("replay-\(recordingName).events"))
    }

    @Test(arguments: targets.keys.sorted())
    func madeByTheBridgeWithNothingMachineSpecific(recordingName: String) throws {
        let (text, recording) = try Self.recording(recordingName)
        #expect(recording.info.address == "C0:DD:EE:00:00:01")
        #expect(recording.info.source?.hasPrefix("daydream-bridge ") == true, "not made by 'daydream-bridge record'")
        #expect(recording.entries.count > 100, "too few entries for a recording of a whole timeline")
        for line in text.split(separator: "\n") where line.contains("/") {
            Issue.record("a path in the recording: \(line)")
        }
    }

    /// `Tests/e2e/timelines/gamepad.tl` in the default gamepad: each button as its own code, home
    /// tapped then held, and the touches as the stick at the right rim, the top rim, lower left, centre.
    @Test func gamepadTimelineInTheDefaultGamepad() throws {
        let lines = try Self.events("emulated-gamepad", Target(file: "default.toml", profile: "gamepad"))
        let keys = lines.filter { $0[2] == "EV_KEY" }.map { "\($0[3]) \($0[4])" }
        #expect(keys == [
            "BTN_SOUTH 1", "BTN_SOUTH 0", "BTN_EAST 1", "BTN_EAST 0", "BTN_TR 1", "BTN_TR 0", "BTN_TL 1", "BTN_TL 0",
            "BTN_MODE 1", "BTN_MODE 0", "BTN_START 1", "BTN_START 0",
        ])
        // Where the frames that move the stick leave it, as the direction it points (repeats dropped).
        var x = 0, y = 0, moved = false
        var directions: [String] = []
        for line in lines {
            if line[3] == "ABS_X" { x = Int(line[4]) ?? 0; moved = true }
            if line[3] == "ABS_Y" { y = Int(line[4]) ?? 0; moved = true }
            guard line[3] == "SYN_REPORT", moved else { continue }
            moved = false
            let direction = Self.direction(x: x, y: y)
            if directions.last != direction { directions.append(direction) }
        }
        // The right rim, the top rim, lower left, then the centre's dead zone; the lift changes nothing.
        #expect(directions == ["right", "up", "down left", "centre"], "stick: \(directions)")
    }

    /// Where a stick at `x`, `y` points: "centre", or up/down and left/right, each named when it is
    /// more than a quarter of the larger component.
    static func direction(x: Int, y: Int) -> String {
        let larger = max(abs(x), abs(y))
        guard larger > 0 else { return "centre" }
        let vertical = abs(y) * 4 > larger ? (y > 0 ? "down" : "up") : nil
        let horizontal = abs(x) * 4 > larger ? (x > 0 ? "right" : "left") : nil
        return [vertical, horizontal].compactMap { $0 }.joined(separator: " ")
    }

    /// `Tests/e2e/timelines/mouse.tl` in its e2e config (linear trackpad): the finger's path is
    /// 128/255 of the pad at 1000 counts a pad, 502 counts right and none down; the buttons and
    /// home's tap; the gyro moves the pointer left only while home is held.
    @Test func mouseTimelineInItsConfig() throws {
        let lines = try Self.events("emulated-mouse", Target(file: "emulated-mouse.toml", profile: "mouse", beside: true))
        let keys = lines.filter { $0[2] == "EV_KEY" }.map { "\($0[1]) \($0[3]) \($0[4])" }
        #expect(keys == [
            "mouse BTN_LEFT 1", "mouse BTN_LEFT 0", "mouse BTN_RIGHT 1", "mouse BTN_RIGHT 0",
            "keyboard KEY_LEFTMETA 1", "keyboard KEY_LEFTMETA 0",
        ])
        // Click goes down at the timeline's 800 ms: the recording's time for the timeline's start follows.
        guard let clickTime = lines.first(where: { $0[3] == "BTN_LEFT" }).flatMap({ Double($0[0]) }) else {
            Issue.record("no click")
            return
        }
        let start = clickTime - 0.8
        let motion = lines.filter { $0[2] == "EV_REL" }.compactMap { line in
            Double(line[0]).flatMap { time in Int(line[4]).map { (time: time - start, code: line[3], value: $0) } }
        }
        // The path runs from 100 to 400 ms, and the finger lifts at 600 ms.
        let trackpad = motion.filter { $0.time < 0.8 }
        #expect(trackpad.filter { $0.code == "REL_X" }.reduce(0) { $0 + $1.value } == 502)
        #expect(trackpad.allSatisfy { $0.code == "REL_X" && $0.value > 0 && $0.time > 0.05 && $0.time < 0.65 })
        // Home is held from 1400 ms (the air mouse from 2400 ms) to 3400 ms and the gyro turns from
        // 2700 to 3200 ms; the second turn, from 3600 ms with home released, must not move the pointer.
        let air = motion.filter { $0.time > 0.8 }
        #expect(!air.isEmpty && air.allSatisfy { $0.code == "REL_X" && $0.value < 0 })
        #expect(air.allSatisfy { $0.time > 2.6 && $0.time < 3.5 },
                "air mouse motion outside the turn while home was held: \(air.map(\.time))")
    }

    /// The power-off with click held, in the default gamepad: the stick at the right rim, click
    /// down, then at the disconnect click up and the stick centred in one frame; after the
    /// reconnect, app tapped.
    @Test func powerOffReleasesWhatWasHeld() throws {
        let (_, recording) = try Self.recording("emulated-power-off")
        let lines = try Self.events("emulated-power-off", Target(file: "default.toml", profile: "gamepad"))
        guard let disconnect = recording.entries.first(where: { $0.event == .disconnected }) else {
            Issue.record("no disconnect in the recording")
            return
        }
        let dropTime = RecordingFormat.formatTime(disconnect.time)
        let release = lines.filter { $0[0] == dropTime }.map { "\($0[3]) \($0[4])" }
        #expect(release == ["BTN_SOUTH 0", "ABS_X 0", "ABS_Y 0", "SYN_REPORT 0"], "at \(dropTime): \(release)")
        let keys = lines.filter { $0[2] == "EV_KEY" }.map { "\($0[3]) \($0[4])" }
        #expect(keys == ["BTN_SOUTH 1", "BTN_SOUTH 0", "BTN_EAST 1", "BTN_EAST 0"])
        let beforeDrop = lines.filter { (Double($0[0]) ?? 0) < (Double(dropTime) ?? 0) }
        #expect(beforeDrop.contains { $0[3] == "ABS_X" && (Int($0[4]) ?? 0) > 0 }, "the stick never went right")
    }
}
