import Foundation
import TestSupport
import Testing

/// `daydream-bridge decode --controller gear-vr|oculus-go`, run as the built binary.
@Suite("decode --controller", .requires(BuiltBinary.exists, "the daydream-bridge binary is not built"))
struct DecodeControllerCommandTests {
    /// A Gear VR packet made by hand: samples at 1000, 5850 and 10700 µs (acceleration 0, 0, 2048;
    /// gyro 14, -28, 143), magnetometer 10, 20, 30, a finger at 160, 200, 31 °C, byte 58 0x49
    /// (the idle flag, click and trigger), battery 77.
    static let gearVR = "e80300000000000000080e00e4ff8f00da1600000000000000080e00e4ff8f00cc2900000000000000080e00e4ff8f000a0014001e001280c81f494d"
    /// An Oculus Go packet made by hand: counter 1, acceleration 0, 127, 0, touch 157, 300, byte 19
    /// 0x1D (touching, trigger, click, Oculus).
    static let oculusGo = "01000000" + "7f00" + "0000" + "000000000000" + "9d00" + "2c01" + "00" + "1d"

    func json(_ line: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try #require(object as? [String: Any])
    }

    @Test func aGearVRPacketShowsItsThreeSamplesAndTheRest() throws {
        let result = try BuiltBinary.run(["decode", "--controller", "gear-vr", Self.gearVR])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let object = try json(try #require(result.stdoutLines.first))
        let raw = try #require(object["raw"] as? [String: Any])
        let samples = try #require(raw["samples"] as? [[String: Any]])
        #expect(samples.map { $0["time"] as? Int } == [1000, 5850, 10700])
        #expect(samples[2]["acceleration"] as? [Int] == [0, 0, 2048])
        #expect(samples[0]["gyro"] as? [Int] == [14, -28, 143])
        #expect(raw["magnetometer"] as? [Int] == [10, 20, 30])
        #expect(raw["touch"] as? [Int] == [160, 200])
        #expect(raw["touching"] as? Bool == true)
        // Byte 58 was 0x49: without the 0x40 idle flag.
        #expect(raw["buttons"] as? Int == 0x09)
        #expect(raw["temperature"] as? Int == 31)
        #expect(raw["battery"] as? Int == 77)
        #expect(object["buttons"] as? [String] == ["click", "trigger"])
        let scaled = try #require(object["samples"] as? [[String: Any]])
        let acceleration = try #require(scaled[0]["acceleration"] as? [Double])
        #expect(abs(acceleration[2] - 9.80665) < 1e-9)
        let touch = try #require(object["touch"] as? [String: Double])
        #expect(abs((touch["x"] ?? -1) - 160.0 / 315.0) < 1e-9)
    }

    @Test func anEchoOrAWrongLengthIsAnErrorAndTheRestStillDecode() throws {
        let result = try BuiltBinary.run(["decode", "--controller", "gear-vr", "0800", Self.gearVR, "5BEBFFB825FDB000041000B00000000000000000"])
        #expect(result.status == 1)
        #expect(result.stdoutLines.count == 1)
        #expect(result.stderr.contains("argument 1 '0800'"))
        #expect(result.stderr.contains("command echo"))
        #expect(result.stderr.contains("argument 3"))
        #expect(result.stderr.contains("a gear-vr packet is 60 bytes, this one has 20"))
    }

    @Test func anOculusGoPacketShowsTheDescribedFields() throws {
        let result = try BuiltBinary.run(["decode", "--controller", "oculus-go", Self.oculusGo])
        #expect(result.status == 0)
        let object = try json(try #require(result.stdoutLines.first))
        let raw = try #require(object["raw"] as? [String: Any])
        #expect(raw["counter"] as? Int == 1)
        #expect(raw["acceleration"] as? [Int] == [0, 127, 0])
        #expect(raw["touch"] as? [Int] == [157, 300])
        #expect(Set(object["buttons"] as? [String] ?? []) == ["click", "home", "trigger"])
    }

    @Test func anUnknownControllerIsAUsageError() throws {
        let result = try BuiltBinary.run(["decode", "--controller", "wiimote", Self.gearVR])
        #expect(result.status == 64)
        #expect(result.stderr.contains("known: daydream, gear-vr, oculus-go"))
    }
}
