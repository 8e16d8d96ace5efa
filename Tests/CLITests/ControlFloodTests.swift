import DaydreamProtocol
import Descriptors
import Foundation
import TestSupport
import Testing

/// The control socket flooded by clients that connect and say nothing, while a controller streams,
/// under a low descriptor limit: `accept` ran out of descriptors, the listener stayed readable and
/// the loop spun (a full core with 80 clients at a 64-descriptor limit). Now the daemon serves a
/// few clients at a time and rests the listener when `accept` fails: it stays nearly idle and
/// every packet still becomes its events.
@Suite("control socket flood", .serialized, .requires(BuiltBinary.exists, "the daydream-bridge binary is not built"))
struct ControlFloodTests {
    /// Clicks toggled every 20 ms for three seconds: 75 presses and 75 releases.
    static let toggles = 150

    static func makeDirectory() throws -> TemporaryDirectory {
        let scratch = try TemporaryDirectory(prefix: "daydream-flood")
        let directory = scratch.path
        try RunCommandTests.configA.save(toFile: directory + "/config.toml")
        var lines = ["# daydream-bridge recording v1", "address C0:DD:EE:00:00:01"]
        lines.append("0.0 " + Hex.encode(DaydreamPacket(acceleration: RawVector(0, 520, 0)).bytes))
        for index in 1...toggles {
            let packet = DaydreamPacket(
                sequence: UInt8(index % 32), acceleration: RawVector(0, 520, 0), buttons: index % 2 == 1 ? .click : []
            )
            lines.append(String(format: "%.2f ", 0.3 + Double(index) * 0.02) + Hex.encode(packet.bytes))
        }
        try (lines.joined(separator: "\n") + "\n").save(toFile: directory + "/stream.recording")
        return scratch
    }

    /// Clients that connect to `path` and send nothing; each one the daemon closes is replaced.
    final class Flood {
        let path: String
        /// A slot per client: nil while it is free.
        private var clients: [Client?]

        /// One client's socket, owned until `close()`: a class, as an array holds only copyable values.
        private final class Client {
            private var socket: FileDescriptor?

            init(_ socket: consuming FileDescriptor) {
                self.socket = consume socket
            }

            /// Whether the daemon closed its end: a read without waiting finds the end of the stream.
            var wasClosedByTheDaemon: Bool {
                guard let descriptor = socket?.rawValue else { return true }
                var byte: UInt8 = 0
                return recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT)) == 0
            }

            /// Closes the socket now: the daemon sees the client go.
            func close() {
                // A socket's close fails only for a bad descriptor, which an owned one is not.
                try? socket.take()?.close()
            }
        }

        init(path: String, clients: Int) {
            self.path = path
            self.clients = Array(repeating: nil, count: clients)
        }

        deinit { stop() }

        /// Closes every client.
        func stop() {
            for index in clients.indices {
                clients[index]?.close()
                clients[index] = nil
            }
        }

        /// Connects every free slot (a full backlog refuses some: they try again next round)
        /// and frees the slots the daemon closed.
        func round() {
            for index in clients.indices {
                if let client = clients[index] {
                    guard client.wasClosedByTheDaemon else { continue }
                    client.close()
                    clients[index] = nil
                }
                clients[index] = connectWithoutWaiting()
            }
        }

        private func connectWithoutWaiting() -> Client? {
            let opened = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard opened >= 0 else { return nil }
            let descriptor = FileDescriptor(owning: opened)
            guard UnixSocketPath.connect(descriptor.rawValue, to: path) == 0 else { return nil }  // `descriptor` closes as it goes
            return Client(descriptor)
        }
    }

    /// The process's user plus system CPU time so far, in seconds, from `/proc/PID/stat`.
    static func cpuSeconds(_ pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return nil }
        // After "pid (comm)": state is field 3, utime 14 and stime 15.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// 80 clients at a 64-descriptor limit (the cap on clients keeps `accept` from running out),
    /// and at 24 (it runs out before the cap: the listener rests).
    @Test(arguments: [64, 24])
    func aFloodOfSilentClientsNeitherSpinsTheLoopNorLosesPackets(descriptorLimit: Int) throws {
        let scratch = try Self.makeDirectory()
        defer { withExtendedLifetime(scratch) {} }
        let directory = scratch.path
        let socketPath = directory + "/control"
        let daemon = try RunningBinary(
            ["run", "--replay", directory + "/stream.recording", "--print", "--socket", socketPath,
             "--config", directory + "/config.toml"],
            directory: directory, descriptorLimit: descriptorLimit
        )
        defer { daemon.signal(SIGTERM); _ = daemon.waitForExit() }
        #expect(daemon.waitFor { daemon.stderr.contains("running with") })
        func count(_ line: String) -> Int { daemon.stdout.components(separatedBy: line).count - 1 }

        let flood = Flood(path: socketPath, clients: 80)
        flood.round()
        let pid = daemon.process.processIdentifier
        let startCPU = try #require(Self.cpuSeconds(pid))
        let start = Date()
        let deadline = start.addingTimeInterval(10)
        while count("gamepad EV_KEY BTN_SOUTH 0\n") < Self.toggles / 2, Date() < deadline, daemon.process.isRunning {
            flood.round()
            Thread.sleep(forTimeInterval: 0.01)
        }
        let elapsed = Date().timeIntervalSince(start)
        let usedCPU = try #require(Self.cpuSeconds(pid)) - startCPU

        #expect(count("gamepad EV_KEY BTN_SOUTH 1\n") == Self.toggles / 2)
        #expect(count("gamepad EV_KEY BTN_SOUTH 0\n") == Self.toggles / 2)
        // Streaming alone takes a few percent of a core; a spinning loop takes all of one.
        #expect(usedCPU / elapsed < 0.3, "the daemon used \(usedCPU) s of CPU in \(elapsed) s")
        if descriptorLimit < 11 + 16 + 2 {  // the daemon holds about 11 of its own
            #expect(daemon.stderr.contains("control socket: cannot accept a client (Too many open files)"))
        }
        // Once the flood is gone, the socket answers.
        flood.stop()
        #expect(daemon.waitFor { (try? BuiltBinary.run(["profile", "--socket", socketPath]))?.status == 0 })
        #expect(daemon.process.isRunning)
    }
}
