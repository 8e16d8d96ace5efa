import DaydreamProtocol
import Foundation
import Mapping
import TestSupport
import Testing
@testable import BridgeConfig

/// The engine's own gyro curve, written to `Tests/browser/gyro-curve.json`: the editor page's
/// gyro panel plots the curve with web/gyro-curve.js, and the browser test
/// (Tests/browser/gyro_panel.py) checks that script against this file, so the plot cannot drift
/// from what the bridge does. Each case is a `gyro = { ... }` table read by the config reader;
/// each point is a speed (deg/s), the curve's sensitivity and the cutoff's factor there, and the
/// gain of a steady turn at that speed through `GyroAim` (output degrees per degree turned).
@Suite("gyro curve fixture")
struct GyroCurveFixtureTests {
    static let fixture = BrowserFixture.browserDirectory.appendingPathComponent("gyro-curve.json")

    /// Tables as a profile writes them, covering each shape of the curve and the cutoff.
    static let cases = [
        "{}",
        "{ sens = 2.5 }",
        "{ min-sens = 0.5, max-sens = 3, min-threshold = 10, max-threshold = 120 }",
        "{ min-sens = 0.8, max-sens = 2, min-threshold = 40, max-threshold = 40 }",
        "{ sens = 1.5, cutoff-speed = 3 }",
        "{ sens = 1.5, cutoff-recovery = 6 }",
        "{ sens = 1, cutoff-speed = 2, cutoff-recovery = 8, min-sens = 0.5, max-sens = 2, max-threshold = 60 }",
        "{ sens = 2, smooth-threshold = 12, smooth-time = \"250ms\", cutoff-recovery = 4 }",
        "{ sens = 1, vertical = 0.5, cutoff-speed = 5, cutoff-recovery = 2 }",
    ]
    static let speeds: [Double] = [0.5, 1, 2, 3, 4.5, 6, 8, 10, 20, 39, 40, 41, 65, 120, 300]

    /// The gain of a steady turn of `speed` deg/s about the controller's up axis, once the
    /// smoothing window has filled: GyroAim's horizontal output over the input.
    static func steadyGain(_ settings: GyroSettings, speed: Double) -> Double {
        var aim = GyroAim(settings: settings)
        var turn = (x: 0.0, y: 0.0)
        for _ in 0..<400 {
            turn = aim.turn(rate: Vector3(x: 0, y: speed, z: 0), gravity: Vector3(x: 0, y: 0, z: 0), seconds: 0.01)
        }
        return -turn.x / speed
    }

    static func table(_ text: String) throws -> GyroSettings {
        let decoded = try ConfigDecoder.decodeAll(Array("[profile.aim]\ngyro = \(text)\n".utf8))
        return try #require(decoded.mapping.profiles.first?.gyro)
    }

    @Test func fixtureIsTheEnginesCurve() throws {
        var lines: [String] = []
        for text in Self.cases {
            let settings = try Self.table(text)
            let points = Self.speeds.map { speed in
                "[\(speed), \(settings.sensitivity(atSpeed: speed)), \(settings.cutoffFactor(atSpeed: speed)), "
                    + "\(Self.steadyGain(settings, speed: speed))]"
            }
            let quoted = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            lines.append("  {\"gyro\": \"\(quoted)\",\n   \"points\": [\(points.joined(separator: ", "))]}")
        }
        let json = "{\"about\": \"GyroCurveFixtureTests: [speed deg/s, sensitivity, cutoff factor, steady gain] per gyro table\",\n"
            + " \"cases\": [\n" + lines.joined(separator: ",\n") + "\n]}\n"
        GoldenFile.check(json, against: Self.fixture)
    }

    /// The fixture's gains are not just the curve: the cutoff feeds the curve the speed it leaves.
    @Test func steadyGainIsCutoffThenCurve() throws {
        let settings = try Self.table("{ min-sens = 0.5, max-sens = 3, max-threshold = 20, cutoff-recovery = 10 }")
        let cutoff = settings.cutoffFactor(atSpeed: 5)
        #expect(abs(Self.steadyGain(settings, speed: 5) - cutoff * settings.sensitivity(atSpeed: 5 * cutoff)) < 1e-9)
    }
}

/// Where the browser tests' fixtures live.
enum BrowserFixture {
    static let browserDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("browser")
}
