import DaydreamProtocol
import Foundation
import TestSupport
import Testing

/// `daydream-bridge calibrate` against the built daemon replaying a controller that lies still
/// with a drifting gyro: the progress shows as it goes, the bias lands in the state directory.
@Suite("calibrate", .serialized, .requires(BuiltBinary.exists, "the daydream-bridge binary is not built"))
struct CalibrateCommandTests {
    /// Four seconds of a controller at rest whose gyro reads (2, -6, 0) counts, 10 ms apart by
    /// its own stamps and by the recording's times.
    static func writeStillRecording(_ scratch: TemporaryDirectory) throws {
        var text = "# daydream-bridge recording v1\naddress C0:DD:EE:00:00:01\n"
        for index in 0..<400 {
            let packet = DaydreamPacket(time: UInt16(index * 10 % 512), sequence: UInt8(index % 32),
                                        acceleration: RawVector(0, 520, 0), gyro: RawVector(2, -6, 0))
            text += "\(index / 100).\(String(format: "%02d", index % 100)) \(Hex.encode(packet.bytes))\n"
        }
        try scratch.write("still.recording", text)
        try scratch.write("config.toml", "[profile.aim]\ngyro = { counts-per-degree = 10 }\n")
    }

    @Test func theHoldShowsItsProgressAndTheBiasIsStored() throws {
        let scratch = try TemporaryDirectory(prefix: "daydream-calibrate")
        try Self.writeStillRecording(scratch)
        let socket = scratch.path("control")
        let daemon = try RunningBinary(
            ["run", "--replay", scratch.path("still.recording"), "--print", "--socket", socket, "--config", scratch.path("config.toml")],
            directory: scratch.path, environment: ["STATE_DIRECTORY": scratch.path("state")])
        defer { daemon.signal(SIGTERM); _ = daemon.waitForExit() }
        #expect(daemon.waitFor { daemon.stderr.contains("C0:DD:EE:00:00:01: connected") }, "\(daemon.stderr)")
        let result = try BuiltBinary.run(["calibrate", "--socket", socket])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "C0:DD:EE:00:00:01: measuring the gyro's bias: hold it still for 2 s")
        #expect(lines.contains("C0:DD:EE:00:00:01: measuring, 50%"))
        // 2 and -6 counts of 2048/4095 deg/s.
        #expect(lines.last == "C0:DD:EE:00:00:01: bias x 1.0 y -3.0 z 0.0 deg/s, stored", "\(lines)")
        let stored = try String(contentsOfFile: scratch.path("state/gyro-bias"), encoding: .utf8)
        #expect(stored.hasPrefix("C0:DD:EE:00:00:01 0.0174"), "\(stored)")
    }

    /// A bias the state directory cannot take: said as a failure, exit 1, though it applies
    /// until the bridge stops. It printed "not stored (...)" and exited 0.
    @Test func aBiasThatCannotBeStoredFailsTheCommand() throws {
        let scratch = try TemporaryDirectory(prefix: "daydream-calibrate")
        try Self.writeStillRecording(scratch)
        // A regular file where the directory's parent should be: no mkdir makes it, even as root.
        try scratch.write("occupied", "")
        let socket = scratch.path("control")
        let daemon = try RunningBinary(
            ["run", "--replay", scratch.path("still.recording"), "--print", "--socket", socket, "--config", scratch.path("config.toml")],
            directory: scratch.path, environment: ["STATE_DIRECTORY": scratch.path("occupied/state")])
        defer { daemon.signal(SIGTERM); _ = daemon.waitForExit() }
        #expect(daemon.waitFor { daemon.stderr.contains("C0:DD:EE:00:00:01: connected") }, "\(daemon.stderr)")
        let result = try BuiltBinary.run(["calibrate", "--socket", socket])
        #expect(result.status == 1, "\(result.stdout)")
        let last = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("C0:DD:EE:00:00:01: failed: bias x 1.0 y -3.0 z 0.0 deg/s applies until the bridge stops "
            + "but was not stored: cannot make "), "\(last)")
        #expect(last.hasSuffix("occupied/state: Not a directory"), "\(last)")
    }

    @Test func withoutADaemonItSaysHowToStartOne() throws {
        let result = try BuiltBinary.run(["calibrate", "--socket", "/nonexistent/control"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: no daydream-bridge daemon is running"), "\(result.stderr)")
    }
}
