import DaydreamProtocol
import Foundation
import TestSupport
import Testing

/// A long recording through the built binary: it is read as it plays. Before, `replay` and
/// `run --replay` read, parsed and held the whole file before the first packet (a 78.6 MB
/// recording: 253 MB of memory, 32 s). What is measured is what the process has read and its
/// peak memory when the first event is out, from /proc, not how long it took.
@Suite("long recordings", .serialized, .requires(BuiltBinary.exists, "the daydream-bridge binary is not built"))
struct LongRecordingTests {
    /// About 40 MB: 820 000 packets 10 ms apart (2 h 17 min), the click held in the first.
    static func writeLongRecording(_ path: String) throws -> Int {
        let click = Hex.encode(DaydreamPacket(acceleration: RawVector(0, 520, 0), buttons: .click).bytes)
        let rest = Hex.encode(DaydreamPacket(sequence: 1, acceleration: RawVector(0, 520, 0)).bytes)
        guard (try? Data().write(to: URL(fileURLWithPath: path))) != nil, let file = FileHandle(forWritingAtPath: path) else {
            throw TestFailure("cannot write \(path)")
        }
        defer { try? file.close() }
        var size = 0
        var text = "# daydream-bridge recording v1\naddress C0:DD:EE:00:00:01\n0.000000 \(click)\n"
        for index in 1..<820_000 {
            text += "\(index / 100).\(String(format: "%06d", index % 100 * 10_000)) \(rest)\n"
            if text.utf8.count > 1 << 20 {
                try file.write(contentsOf: Data(text.utf8))
                size += text.utf8.count
                text = ""
            }
        }
        try file.write(contentsOf: Data(text.utf8))
        return size + text.utf8.count
    }

    /// `NAME: VALUE` from a /proc file of `pid`, as a number (the first word of the value).
    static func procValue(_ pid: Int32, _ file: String, _ name: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/\(file)", encoding: .utf8) else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + ":") }
        let words = line?.dropFirst(name.count + 1).split { $0 == " " || $0 == "\t" }
        return words?.first.flatMap { Int($0) }
    }

    /// Plays `path` with `command` until the first packet's event is out; what the process has read
    /// and its peak memory (bytes) then.
    static func atFirstPacket(_ command: String, _ path: String, scratch: TemporaryDirectory) throws -> (read: Int, peak: Int) {
        let config = scratch.path("config.toml")
        try scratch.write("config.toml", "[profile.pad]\nclick = \"BTN_SOUTH\"\n")
        let arguments = command == "replay"
            ? ["replay", path, "--print", "--config", config]
            : ["run", "--replay", path, "--print", "--socket", "none", "--config", config]
        let player = try RunningBinary(arguments, directory: scratch.path)
        defer { player.signal(SIGTERM); _ = player.waitForExit() }
        #expect(player.waitFor(timeout: 60) { player.stdout.contains("gamepad EV_KEY BTN_SOUTH 1") })
        let pid = player.process.processIdentifier
        let read = try #require(Self.procValue(pid, "io", "rchar"))
        let peak = try #require(Self.procValue(pid, "status", "VmHWM")) * 1024
        return (read, peak)
    }

    /// The peak is judged against the same binary's at the first packet of a two-packet recording,
    /// measured in the same run: a sanitizer's build starts far bigger (the sanitize step saw 32 MB),
    /// and what matters is that the file's size adds nothing (before, about three times the file).
    @Test(arguments: ["replay", "run"])
    func theFirstPacketPlaysAfterReadingOneChunk(command: String) throws {
        let scratch = try TemporaryDirectory(prefix: "daydream-long")
        defer { withExtendedLifetime(scratch) {} }
        let short = scratch.path("short.recording")
        let click = Hex.encode(DaydreamPacket(acceleration: RawVector(0, 520, 0), buttons: .click).bytes)
        let rest = Hex.encode(DaydreamPacket(sequence: 1, acceleration: RawVector(0, 520, 0)).bytes)
        // Two packets a minute apart: the player is still waiting for the second when it is measured.
        try scratch.write("short.recording",
                          "# daydream-bridge recording v1\naddress C0:DD:EE:00:00:01\n0.000000 \(click)\n60.000000 \(rest)\n")
        let floor = try Self.atFirstPacket(command, short, scratch: scratch)
        let path = scratch.path("long.recording")
        let size = try Self.writeLongRecording(path)
        #expect(size > 40_000_000)
        let long = try Self.atFirstPacket(command, path, scratch: scratch)
        #expect(long.read < 1_000_000, "\(long.read) bytes read before the first packet, of \(size)")
        #expect(long.peak - floor.peak < size / 4,
                "peak memory \(long.peak) bytes at the first packet, \(floor.peak) for one packet, for a \(size)-byte recording")
    }

    /// A bad line after good ones: what comes before it plays, then the problem is named and the
    /// command fails (before, nothing played: the whole file was checked first).
    @Test func aBadLineStopsThePlayThere() throws {
        let scratch = try TemporaryDirectory(prefix: "daydream-long")
        defer { withExtendedLifetime(scratch) {} }
        let click = Hex.encode(DaydreamPacket(acceleration: RawVector(0, 520, 0), buttons: .click).bytes)
        let path = scratch.path("bad.recording")
        try scratch.write("bad.recording", "# daydream-bridge recording v1\n0.0 \(click)\n0.1 12\nbattery x\n")
        try scratch.write("config.toml", "[profile.pad]\nclick = \"BTN_SOUTH\"\n")
        let replay = try BuiltBinary.run(["replay", path, "--fast", "--config", scratch.path("config.toml")])
        #expect(replay.status == 1)
        #expect(replay.stdout.contains("gamepad EV_KEY BTN_SOUTH 1"))
        #expect(replay.stdout.hasSuffix("gamepad EV_KEY BTN_SOUTH 0\n0.000000 gamepad EV_SYN SYN_REPORT 0\n"), "released at the end")
        #expect(replay.stderr == "\(path):3:5: a packet is 20 bytes (40 hex digits); this one has 2 digits\n"
            + "\(path):4:9: battery is a percentage, 0 to 100, not 'x'\n")

        let daemon = try RunningBinary(
            ["run", "--replay", path, "--print", "--socket", "none", "--config", scratch.path("config.toml")], directory: scratch.path)
        #expect(daemon.waitForExit(timeout: 10) == 1)
        #expect(daemon.stdout.contains("gamepad EV_KEY BTN_SOUTH 1"))
        #expect(daemon.stderr.contains("<3>\(path):3:5: a packet is 20 bytes (40 hex digits); this one has 2 digits\n"
            + "<3>\(path):4:9: battery is a percentage, 0 to 100, not 'x'\n"
            + "<3>stopping: the recording cannot be played past its bad line\n"))
        #expect(daemon.stdout.contains("gamepad EV_KEY BTN_SOUTH 0"), "released on the way out")
    }
}
