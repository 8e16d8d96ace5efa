@testable import Bridge
import EventLoop
import Foundation
import Testing

/// Streamed replies on the control socket: lines as the daemon sends them, the end when the
/// client hangs up, a slow reader dropped rather than queued without bound.
@MainActor
@Suite struct ControlStreamTests {
    @MainActor
    final class Rig {
        let scratch: String
        let reactor: Reactor
        var server: ControlServer?
        var streams: [ControlStream] = []
        var ended = 0

        init(streaming: Bool) throws {
            scratch = FileManager.default.temporaryDirectory.appendingPathComponent("daydream-stream-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            reactor = try Reactor()
            var streamHandler: (@MainActor (ControlStream) -> Void)?
            if streaming { streamHandler = { [weak self] stream in self?.take(stream) } }
            server = try ControlServer(path: scratch + "/control", reactor: reactor, handler: { _ in .ok() }, streamHandler: streamHandler)
        }

        func take(_ stream: ControlStream) {
            stream.onEnd = { [weak self] in self?.ended += 1 }
            streams.append(stream)
            stream.send("ok")
        }

        func finish() {
            server?.close()
            try? FileManager.default.removeItem(atPath: scratch)
        }

        /// A connected client that has sent `line`.
        func client(_ line: String) throws -> Int32 {
            let descriptor = try ControlClient.connect(scratch + "/control", nonBlocking: true)
            let raw = dup(descriptor.rawValue)
            _ = FileOutput.write(line + "\n", to: raw)
            return raw
        }

        /// What the client can read now.
        func read(_ descriptor: Int32) -> String {
            var bytes = [UInt8](repeating: 0, count: 65536)
            let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            return count > 0 ? String(decoding: bytes[..<count], as: UTF8.self) : ""
        }
    }

    @Test func linesArriveAsSentAndAHangUpEndsTheStream() throws {
        let rig = try Rig(streaming: true)
        defer { rig.finish() }
        let client = try rig.client("calibrate")
        #expect(rig.reactor.run(until: { !rig.streams.isEmpty }, timeout: .seconds(5)))
        var received = ""
        #expect(rig.reactor.run(until: { received += rig.read(client); return received == "ok\n" }, timeout: .seconds(5)))
        rig.streams[0].send("C0:DD:EE:00:00:01: measuring, 10%")
        #expect(rig.reactor.run(until: { received += rig.read(client); return received.hasSuffix("10%\n") }, timeout: .seconds(5)))
        close(client)
        #expect(rig.reactor.run(until: { rig.ended == 1 }, timeout: .seconds(5)))
        #expect(!rig.streams[0].isOpen)
        rig.streams[0].send("after the end: goes nowhere")
    }

    @Test func aClientThatDoesNotReadIsDroppedAtTheBound() throws {
        let rig = try Rig(streaming: true)
        defer { rig.finish() }
        let client = try rig.client("calibrate")
        defer { close(client) }
        #expect(rig.reactor.run(until: { !rig.streams.isEmpty }, timeout: .seconds(5)))
        let line = String(repeating: "x", count: 1023)
        var sent = 0
        // The socket buffers take some, then the queue fills to its bound.
        while rig.streams[0].isOpen, sent < 100_000 {
            rig.streams[0].send(line)
            sent += 1
        }
        #expect(!rig.streams[0].isOpen, "still open after \(sent) KB")
        #expect(rig.ended == 1)
    }

    @Test func aServerWithoutStreamsRefusesThem() throws {
        let rig = try Rig(streaming: false)
        defer { rig.finish() }
        let client = try rig.client("calibrate")
        defer { close(client) }
        var received = ""
        #expect(rig.reactor.run(until: { received += rig.read(client); return received.hasSuffix("\n") }, timeout: .seconds(5)))
        #expect(received == "error: this daemon cannot answer 'calibrate'\n")
    }
}
