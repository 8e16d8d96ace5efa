#if canImport(Glibc)
import Glibc
#endif
import CEvdev
import Descriptors
import TestSupport
import Testing
@testable import VirtualDevice

/// Frame packing: a SOCK_SEQPACKET socket keeps write boundaries, so the
/// number of messages read is the number of `write(2)` calls made.
@Suite("Frame packing")
struct InputEventWriterTests {
    static let eventSize = MemoryLayout<input_event>.stride

    /// A connected SOCK_SEQPACKET pair, closed when it goes.
    final class SocketPair {
        private let writer: FileDescriptor
        private let reader: FileDescriptor

        var writeEnd: Int32 { writer.rawValue }
        var readEnd: Int32 { reader.rawValue }

        init() throws {
            var fds: [Int32] = [-1, -1]
            let result = socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds)
            try #require(result == 0, "socketpair: errno \(errno)")
            writer = FileDescriptor(owning: fds[0])
            reader = FileDescriptor(owning: fds[1])
        }

        /// Every message waiting, each as its events.
        func messages() -> [[input_event]] {
            var result: [[input_event]] = []
            var buffer = [input_event](repeating: input_event(), count: 64)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(readEnd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if count <= 0 { return result }
                result.append(Array(buffer.prefix(count / InputEventWriterTests.eventSize)))
            }
        }
    }

    @Test func oneFrameIsOneWrite() throws {
        let pair = try SocketPair()
        let writer = InputEventWriter(fileDescriptor: pair.writeEnd, capacity: 8, deviceName: "test")
        try writer.append(type: Code.evKey, code: Code.btnSouth, value: 1)
        try writer.append(type: Code.evAbs, code: Code.absX, value: -32768)
        try writer.endFrame()
        try writer.append(type: Code.evKey, code: Code.btnSouth, value: 0)
        try writer.endFrame()
        let messages = pair.messages()
        #expect(messages.count == 2)
        let first = try #require(messages.first)
        #expect(first.map { [Int($0.type), Int($0.code), Int($0.value)] } == [
            [Int(EV_KEY), Int(BTN_SOUTH), 1], [Int(EV_ABS), Int(ABS_X), -32768], [Int(EV_SYN), Int(SYN_REPORT), 0],
        ])
        #expect(messages.last?.count == 2)
        #expect(writer.count == 0)
    }

    @Test func timestampsAreLeftToTheKernel() throws {
        let pair = try SocketPair()
        let writer = InputEventWriter(fileDescriptor: pair.writeEnd, capacity: 4, deviceName: "test")
        try writer.append(type: Code.evRel, code: Code.relX, value: 7)
        try writer.endFrame()
        let events = try #require(pair.messages().first)
        for event in events {
            withUnsafeBytes(of: event) { bytes in
                #expect(bytes.prefix(Self.eventSize - 8).allSatisfy { $0 == 0 }, "time fields are zero")
            }
        }
    }

    @Test func aFrameLargerThanTheBufferGoesOutInParts() throws {
        let pair = try SocketPair()
        let writer = InputEventWriter(fileDescriptor: pair.writeEnd, capacity: 3, deviceName: "test")
        for value in 1...4 { try writer.append(type: Code.evRel, code: Code.relX, value: Int32(value)) }
        try writer.endFrame()
        let messages = pair.messages()
        #expect(messages.map(\.count) == [3, 2])
        #expect(messages.joined().map(\.value) == [1, 2, 3, 4, 0])
    }

    @Test func pipeReceivesWholeEvents() throws {
        let pipe = try TestPipe()
        let writer = InputEventWriter(fileDescriptor: pipe.writeEnd, capacity: 16, deviceName: "test")
        for code in [Code.keyLeftCtrl, Code.keyC] { try writer.append(type: Code.evKey, code: code, value: 1) }
        try writer.endFrame()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(pipe.readEnd, $0.baseAddress, $0.count) }
        #expect(count == 3 * Self.eventSize)
    }

    @Test func emptyFlushWritesNothing() throws {
        let pair = try SocketPair()
        let writer = InputEventWriter(fileDescriptor: pair.writeEnd, capacity: 4, deviceName: "test")
        try writer.flush()
        try writer.append(type: Code.evRel, code: Code.relX, value: 1)
        writer.discard()
        try writer.flush()
        #expect(pair.messages().isEmpty)
    }

    @Test func failedWriteNamesTheDevice() throws {
        // -1, not a descriptor just closed: tests run in parallel, and a closed number can be
        // another test's by the time this writes to it.
        let writer = InputEventWriter(fileDescriptor: -1, capacity: 4, deviceName: "Daydream Controller Mouse")
        try writer.append(type: Code.evRel, code: Code.relX, value: 1)
        #expect(throws: VirtualDeviceError.writeFailed(device: "Daydream Controller Mouse", errno: EBADF)) {
            try writer.endFrame()
        }
        #expect(writer.count == 0)
    }
}
