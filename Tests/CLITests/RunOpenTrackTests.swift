import Descriptors
import Foundation
import Glibc
import TestSupport
import Testing

/// `[opentrack]` against the built binary: `run --replay Tests/Recordings/head-track.recording
/// --print` sends opentrack's datagrams to a UDP listener on 127.0.0.1, decoded here from the
/// format's description (six little-endian doubles: x, y, z, yaw, pitch, roll).
@Suite("run with [opentrack]", .serialized, .requires(BuiltBinary.exists, "the daydream-bridge binary is not built"))
struct RunOpenTrackTests {
    static let recording = CheckConfigCommandTests.root.appendingPathComponent("Tests/Recordings/head-track.recording").path
    /// The recording's packets (see `Scenarios.headTrack`): one datagram each.
    static let packets = 220
    /// Degrees: the recording's angles are whole orientation counts (683 is 60.044 degrees,
    /// 341 is 29.978).
    static let tolerance = 0.1

    static func config(port: UInt16) -> String {
        """
        [opentrack]
        send-to = "127.0.0.1:\(port)"

        [profile.head]
        app = "recenter"
        """
    }

    func run(port: UInt16, in scratch: TemporaryDirectory, verbose: Bool = false) throws -> RunningBinary {
        try Self.config(port: port).write(toFile: scratch.path("config.toml"), atomically: true, encoding: .utf8)
        return try RunningBinary(
            ["run", "--config", scratch.path("config.toml"), "--replay", Self.recording, "--print", "--socket", "none", "--bus", "none"]
                + (verbose ? ["-v"] : []),
            directory: scratch.path)
    }

    @Test func aTurnAndATipComeOutAsTheirDegreesAndTheRecenterActionZeroesThem() throws {
        let scratch = try TemporaryDirectory(prefix: "daydream-opentrack")
        let listener = try UDPListener()
        let daemon = try run(port: listener.port, in: scratch)
        defer {
            daemon.signal(SIGTERM)
            _ = daemon.waitForExit()
        }
        var datagrams: [[UInt8]] = []
        #expect(daemon.waitFor {
            datagrams += listener.receiveAll()
            return datagrams.count >= Self.packets
        }, "\(datagrams.count) datagrams; \(daemon.stderr)")
        #expect(datagrams.count == Self.packets)
        #expect(datagrams.allSatisfy { $0.count == 48 })
        let poses = datagrams.map(Self.decode)
        #expect(poses.allSatisfy { $0[0] == 0 && $0[1] == 0 && $0[2] == 0 }, "a 3-DoF controller has no position")
        let largestRoll = poses.map { abs($0[5]) }.max() ?? .infinity
        #expect(largestRoll < Self.tolerance, "roll stays still: \(largestRoll)")
        // (packet, yaw, pitch) at the end of each still phase of the recording.
        let expected: [(Int, Double, Double)] = [
            (9, 0, 0), (44, 60, 0), (74, 0, 0), (109, 0, 30), (139, 0, 0), (169, 60, 0),
            (184, 0, 0),  // app pressed at 170: recentred, turned 60 degrees right
            (219, -60, 0),  // then turned back straight: 60 degrees left of the new zero
        ]
        for (index, yaw, pitch) in expected where index < poses.count {
            #expect(abs(poses[index][3] - yaw) < Self.tolerance, "packet \(index): yaw \(poses[index][3]), expected \(yaw)")
            #expect(abs(poses[index][4] - pitch) < Self.tolerance, "packet \(index): pitch \(poses[index][4]), expected \(pitch)")
        }
    }

    @Test func nobodyListeningIsOneLineAndTheBridgeRunsOn() throws {
        let scratch = try TemporaryDirectory(prefix: "daydream-opentrack")
        // A port nobody listens on: bound, read, and closed again.
        let port = try UDPListener().port
        let daemon = try run(port: port, in: scratch, verbose: true)
        defer {
            daemon.signal(SIGTERM)
            _ = daemon.waitForExit()
        }
        // The replay's 220 datagrams all tried, to its end, with the daemon up.
        #expect(daemon.waitFor { daemon.stderr.contains("end of the recording") }, "\(daemon.stderr)")
        #expect(daemon.exitStatus == nil, "the bridge runs on: \(daemon.stderr)")
        let lines = daemon.stderr.split(separator: "\n").filter { $0.contains("opentrack:") }
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.hasSuffix("opentrack: sending C0:DD:EE:00:00:01's orientation to 127.0.0.1:\(port)") == true, "\(lines)")
        #expect(lines.last?.contains("127.0.0.1:\(port) did not go: nobody listens there") == true, "\(lines)")
    }

    /// The six doubles of a datagram, little-endian.
    static func decode(_ bytes: [UInt8]) -> [Double] {
        (0..<6).map { index in
            var bits: UInt64 = 0
            for byte in (0..<8).reversed() { bits = bits << 8 | UInt64(bytes[index * 8 + byte]) }
            return Double(bitPattern: bits)
        }
    }
}

/// A non-blocking UDP socket bound to 127.0.0.1 on a port the kernel picks.
private final class UDPListener {
    let descriptor: FileDescriptor
    let port: UInt16

    init() throws {
        let opened = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard opened >= 0 else { throw POSIXError(.EINVAL) }
        descriptor = FileDescriptor(owning: opened)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(opened, $0, length) == 0 && getsockname(opened, $0, &length) == 0 }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        port = UInt16(bigEndian: address.sin_port)
    }

    /// Every datagram waiting now.
    func receiveAll() -> [[UInt8]] {
        var result: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let received = buffer.withUnsafeMutableBytes { recv(descriptor.rawValue, $0.baseAddress, $0.count, 0) }
            guard received >= 0 else { return result }
            result.append(Array(buffer[0..<received]))
        }
    }
}
