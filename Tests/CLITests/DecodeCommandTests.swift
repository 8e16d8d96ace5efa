import Foundation
import TestSupport
import Testing

/// `daydream-bridge decode`, run as the built binary.
@Suite("decode command", .requires(BuiltBinary.exists, "the daydream-bridge binary is not built"))
struct DecodeCommandTests {
    static let flat = "5BEBFFB825FDB000041000B00000000000000000"
    static let finger = "480BFE87EB00E801841000B00000000191FBA008"
    static let volumeUp = "26F80361C2002002C40FFE400000000000001011"

    func json(_ line: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try #require(object as? [String: Any])
    }

    @Test func rawCountsAreExactlyAsPacked() throws {
        let result = try BuiltBinary.run(["decode", Self.flat, Self.finger, Self.volumeUp])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let lines = result.stdoutLines
        try #require(lines.count == 3)
        let raws = try lines.map { try #require(json($0)["raw"] as? [String: Any]) }
        #expect(raws[0]["time"] as? Int == 183)
        #expect(raws[0]["seq"] as? Int == 26)
        #expect(raws[0]["orientation"] as? [Int] == [-3, -2011, -74])
        #expect(raws[0]["acceleration"] as? [Int] == [0, 520, 11])
        #expect(raws[0]["gyro"] as? [Int] == [0, 0, 0])
        #expect(raws[0]["touch"] as? [Int] == [0, 0])
        #expect(raws[0]["buttons"] as? Int == 0)
        #expect(raws[0]["status"] as? Int == 0)
        #expect(raws[1]["orientation"] as? [Int] == [-12, 2027, 29])
        #expect(raws[1]["gyro"] as? [Int] == [0, 0, 12])
        #expect(raws[1]["touch"] as? [Int] == [143, 221])
        #expect(raws[1]["status"] as? Int == 8)
        #expect(raws[2]["acceleration"] as? [Int] == [11, 519, -28])
        #expect(raws[2]["buttons"] as? Int == 16)
        #expect(raws[2]["status"] as? Int == 17)
    }

    @Test func scaledValuesSitBesideTheRawOnes() throws {
        let result = try BuiltBinary.run(["decode", Self.flat, Self.finger, Self.volumeUp])
        let objects = try result.stdoutLines.map(json)
        try #require(objects.count == 3)
        #expect(objects[0]["touch"] is NSNull)
        let touch = try #require(objects[1]["touch"] as? [String: Double])
        #expect(abs((touch["x"] ?? -1) - 143.0 / 255.0) < 1e-9)
        #expect(abs((touch["y"] ?? -1) - 221.0 / 255.0) < 1e-9)
        #expect(objects[2]["buttons"] as? [String] == ["volume-up"])
        let acceleration = try #require(objects[0]["acceleration"] as? [Double])
        #expect(abs(acceleration[1] - 520 * 8 * 9.80665 / 4095) < 1e-9)
        let rate = try #require(objects[1]["rotation_rate"] as? [Double])
        #expect(abs(rate[2] - 12 * 2048 / 4095 * Double.pi / 180) < 1e-9)
        let q = try #require(objects[0]["quaternion"] as? [String: Double])
        let norm = ["w", "x", "y", "z"].map { (q[$0] ?? 0) * (q[$0] ?? 0) }.reduce(0, +)
        #expect(abs(norm - 1) < 1e-9)
    }

    @Test func badPacketsAreReportedAndTheOthersStillPrint() throws {
        let result = try BuiltBinary.run(["decode", "not-hex", Self.flat, "00FF", Self.volumeUp + "00"])
        #expect(result.status == 1)
        #expect(result.stdoutLines.count == 1)
        let errors = result.stderr.split(separator: "\n").map(String.init)
        #expect(errors.count == 3)
        #expect(errors[0].contains("argument 1 'not-hex'") && errors[0].contains("not hex"))
        #expect(errors[1].contains("argument 3 '00FF'") && errors[1].contains("has 2"))
        #expect(errors[2].contains("argument 4") && errors[2].contains("has 21"))
    }

    @Test func noPacketIsAUsageError() throws {
        let result = try BuiltBinary.run(["decode"])
        #expect(result.status == 64)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("Error: ") == true)
        #expect(lines.dropFirst().first == "Usage: daydream-bridge decode HEX... [--controller FAMILY]")
        #expect(lines.last == "See 'daydream-bridge --help'.")
    }
}
