import DaydreamProtocol
import Descriptors
import Foundation
import Glibc
import TestSupport
import Testing

/// `run --dsu` against the built binary: a replayed controller, printed events, and a DSU client
/// of a few lines over loopback (its own bytes and CRC32, from the protocol description).
@Suite("run --dsu", .serialized, .requires(BuiltBinary.exists, "the daydream-bridge binary is not built"))
struct RunDSUTests {
    /// A recording of 4 s at 16 ms a packet: lying flat (acc y 512 counts), volume up held.
    static func makeDirectory() throws -> TemporaryDirectory {
        let scratch = try TemporaryDirectory(prefix: "daydream-dsu")
        var lines = ["# daydream-bridge recording v1", "address C0:DD:EE:00:00:01"]
        for index in 0..<250 {
            let packet = DaydreamPacket(
                time: UInt16(index * 16 % 512), sequence: UInt8(index % 32), acceleration: RawVector(0, 512, 0), buttons: .volumeUp)
            lines.append(String(format: "%.3f ", Double(index) * 0.016) + Hex.encode(packet.bytes))
        }
        try (lines.joined(separator: "\n") + "\n").save(toFile: scratch.path + "/flat.recording")
        return scratch
    }

    func start(_ directory: String, dsu: String) throws -> RunningBinary {
        try RunningBinary(
            ["run", "--replay", directory + "/flat.recording", "--print", "--socket", "none", "--dsu=" + dsu], directory: directory)
    }

    /// The port the log says the server took.
    static func port(in log: String) -> UInt16? {
        guard let range = log.range(of: "emulators on 127.0.0.1:") else { return nil }
        return UInt16(log[range.upperBound...].prefix { $0.isNumber })
    }

    @Test func aClientGetsTheReplayedControllerInGAndItsButtons() throws {
        let scratch = try Self.makeDirectory()
        defer { withExtendedLifetime(scratch) {} }
        let daemon = try start(scratch.path, dsu: "127.0.0.1:0")
        defer {
            daemon.signal(SIGTERM)
            _ = daemon.waitForExit()
        }
        #expect(daemon.waitFor { Self.port(in: daemon.stderr) != nil }, "\(daemon.stderr)")
        let port = try #require(Self.port(in: daemon.stderr))
        let client = try LoopbackClient(port: port)
        var data: [UInt8]?
        for _ in 0..<20 where data == nil {
            // Subscribe to slot 0 (flags 1, slot 0, no MAC) and read what comes within 250 ms.
            client.send(type: 0x10_0002, payload: [1, 0, 0, 0, 0, 0, 0, 0])
            data = client.receive(type: 0x10_0002)
        }
        let message = try #require(data, "\(daemon.stderr)")
        #expect(message.count == 100)
        #expect(Array(message[24..<30]) == [0xC0, 0xDD, 0xEE, 0x00, 0x00, 0x01])  // the address as the MAC
        #expect(message[21] == 2)  // connected
        #expect(message[37] == 0x08)  // R1: volume up
        let accelerationY = Float(bitPattern: UInt32(message[80]) | UInt32(message[81]) << 8 | UInt32(message[82]) << 16 | UInt32(message[83]) << 24)
        #expect(abs(Double(accelerationY) + 512 * 8 / 4095) < 1e-5)
        #expect(!daemon.stdout.isEmpty)  // --print printed the mapping's events meanwhile
    }

    @Test func aPortInUseIsOneLineAndTheBridgeRunsOn() throws {
        let scratch = try Self.makeDirectory()
        defer { withExtendedLifetime(scratch) {} }
        let holder = try LoopbackClient(port: 9)
        let taken = holder.localPort
        let daemon = try start(scratch.path, dsu: "127.0.0.1:\(taken)")
        defer {
            daemon.signal(SIGTERM)
            _ = daemon.waitForExit()
        }
        #expect(daemon.waitFor { daemon.stderr.contains("C0:DD:EE:00:00:01: connected") }, "\(daemon.stderr)")
        let lines = daemon.stderr.split(separator: "\n").filter { $0.contains("dsu:") }
        #expect(lines.count == 1)
        #expect(lines.first?.hasSuffix("dsu: 127.0.0.1:\(taken) is in use (another DSU server, or another daydream-bridge?); "
            + "running without DSU") == true)
    }
}

/// A UDP socket on 127.0.0.1 that talks to one port, with a bitwise CRC32 of its own.
private final class LoopbackClient {
    let descriptor: FileDescriptor

    init(port: UInt16) throws {
        let opened = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard opened >= 0 else { throw POSIXError(.EINVAL) }
        descriptor = FileDescriptor(owning: opened)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var timeout = timeval(tv_sec: 0, tv_usec: 250_000)
        setsockopt(descriptor.rawValue, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let fd = descriptor.rawValue
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        address.sin_port = port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.EINVAL) }
    }

    var localPort: UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = descriptor.rawValue
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return UInt16(bigEndian: address.sin_port)
    }

    func send(type: UInt32, payload: [UInt8]) {
        func le(_ value: UInt32, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        var bytes = Array("DSUC".utf8) + le(1001, 2) + le(UInt32(4 + payload.count), 2) + le(0, 4) + le(7, 4) + le(type, 4) + payload
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        bytes.replaceSubrange(8..<12, with: le(~crc, 4))
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor.rawValue, $0.baseAddress, $0.count, 0) }
    }

    /// The first datagram of `type` to arrive within the receive timeout, or nil.
    func receive(type: UInt32) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor.rawValue, $0.baseAddress, $0.count, 0) }
            guard count >= 20 else { return nil }
            let received = UInt32(buffer[16]) | UInt32(buffer[17]) << 8 | UInt32(buffer[18]) << 16 | UInt32(buffer[19]) << 24
            if received == type { return Array(buffer.prefix(count)) }
        }
    }
}
