import Foundation
import TestSupport
import Testing

/// `replay` plays the shipped Gear VR example (Tests/Recordings/gear-vr.recording, rendered from
/// Tests/e2e/timelines/gear-vr-tour.tl by the emulated Gear VR's encoder) through a profile that
/// binds every Gear VR button: each press and release comes out once, in the tour's order, the
/// swipes move the stick, and the turn right moves the right stick right.
@Suite("Gear VR example recording", .requires(BuiltBinary.exists, "the daydream-bridge binary is not built"))
struct GearVRRecordingTests {
    static let recording = ReplayCommandTests.root.appendingPathComponent("Tests/Recordings/gear-vr.recording").path
    static let config = """
        [bridge]
        profile = "gear"

        [profile.gear]
        trigger = "BTN_WEST"
        back = "BTN_NORTH"
        click = "BTN_SOUTH"
        volume-up = "BTN_TR"
        volume-down = "BTN_TL"
        home = { tap = "BTN_MODE", hold = "BTN_START" }
        touchpad = { mode = "stick", deadzone = 0.1, saturation = 0.9, shape = "circle" }
        gyro = { output = "right-stick" }

        """

    /// The `EV_KEY` lines of the replay's output, as "CODE VALUE".
    static func keys(_ output: String) -> [String] {
        output.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard words.count == 5, words[2] == "EV_KEY" else { return nil }
            return "\(words[3]) \(words[4])"
        }
    }

    /// The values of `code` on the gamepad, in order.
    static func values(_ output: String, _ code: String) -> [Int] {
        output.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard words.count == 5, words[1] == "gamepad", words[3] == code else { return nil }
            return Int(words[4])
        }
    }

    @Test func replaysEveryButtonTheSwipesAndTheTurn() throws {
        let scratch = try TemporaryDirectory(prefix: "daydream-gear-vr")
        defer { withExtendedLifetime(scratch) {} }
        let config = scratch.path("gear.toml")
        try Self.config.save(toFile: config)
        let result = try BuiltBinary.run(["replay", Self.recording, "--fast", "--config", config])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let presses = ["BTN_WEST", "BTN_NORTH", "BTN_SOUTH", "BTN_TR", "BTN_TL", "BTN_MODE", "BTN_START"]
            .flatMap { ["\($0) 1", "\($0) 0"] }
        // The trigger again, held through the turn.
        #expect(Self.keys(result.stdout) == presses + ["BTN_WEST 1", "BTN_WEST 0"])
        let x = Self.values(result.stdout, "ABS_X")
        let y = Self.values(result.stdout, "ABS_Y")
        // The swipes reach 40 and 280 of 0...315: 81 % and 85 % of full deflection past the dead zone.
        #expect(x.contains { $0 < -25_000 } && x.contains { $0 > 25_000 }, "the swipe across: ABS_X \(x)")
        #expect(y.contains { $0 < -25_000 } && y.contains { $0 > 25_000 }, "the swipe down: ABS_Y \(y)")
        // 714 counts at 14.285 per deg/s right over the default 360 deg/s for full deflection
        // (4549), then 1428 up (-9099): the Gear VR's own axes, turned into the common frame.
        let rightX = Self.values(result.stdout, "ABS_RX")
        let rightY = Self.values(result.stdout, "ABS_RY")
        let turn = Int((714 / 14.285 / 360 * 32767).rounded())
        let tip = -Int((1428 / 14.285 / 360 * 32768).rounded())
        #expect(rightX.contains { abs($0 - turn) <= 2 }, "the turn right: ABS_RX \(rightX), expected \(turn)")
        #expect(rightY.contains { abs($0 - tip) <= 2 }, "the tip up: ABS_RY \(rightY), expected \(tip)")
        #expect(rightX.last == 0 && rightY.last == 0)
    }
}
