#if canImport(Glibc)
import Glibc
#endif
import CEvdev
import Mapping
import Testing
@testable import VirtualDevice

/// `PipeDeviceSet` (`run --write-events`): the uinput devices' checks and frames, on a file
/// descriptor. A SOCK_SEQPACKET socket keeps write boundaries, so each message read is one `write(2)`.
@Suite("Pipe device set")
struct PipeDeviceSetTests {
    typealias SocketPair = InputEventWriterTests.SocketPair

    static func triples(_ events: [input_event]) -> [[Int]] {
        events.map { [Int($0.type), Int($0.code), Int($0.value)] }
    }

    @Test func eachDeviceFrameIsOneWriteOfRawEvents() throws {
        let pair = try SocketPair()
        let set = try PipeDeviceSet(capabilities: Fixture.all, fileDescriptor: pair.writeEnd)
        try set.send([
            Fixture.event(.gamepad, Code.evKey, Code.btnSouth, 1),
            Fixture.event(.gamepad, Code.evAbs, Code.absX, 1200),
            Fixture.syn(.gamepad),
            Fixture.event(.mouse, Code.evRel, Code.relX, -3),
            Fixture.syn(.mouse),
        ])
        let messages = pair.messages()
        #expect(messages.map(Self.triples) == [
            [[Int(EV_KEY), Int(BTN_SOUTH), 1], [Int(EV_ABS), Int(ABS_X), 1200], [Int(EV_SYN), Int(SYN_REPORT), 0]],
            [[Int(EV_REL), Int(REL_X), -3], [Int(EV_SYN), Int(SYN_REPORT), 0]],
        ])
        #expect(set.summary.count == 3)
    }

    @Test func undeclaredCodesAndMissingDevicesAreRefusedTheRestWritten() throws {
        let pair = try SocketPair()
        let set = try PipeDeviceSet(capabilities: Capabilities(gamepad: Fixture.gamepad), fileDescriptor: pair.writeEnd)
        #expect(throws: VirtualDeviceError.undeclaredCode(device: "Daydream Controller Gamepad", code: "BTN_DPAD_UP")) {
            try set.send([
                Fixture.event(.gamepad, Code.evKey, Code.btnDpadUp, 1),
                Fixture.event(.gamepad, Code.evKey, Code.btnEast, 1),
                Fixture.syn(.gamepad),
            ])
        }
        #expect(throws: VirtualDeviceError.noSuchDevice("mouse")) {
            try set.send([Fixture.event(.mouse, Code.evRel, Code.relX, 1), Fixture.syn(.mouse)])
        }
        #expect(pair.messages().map(Self.triples) == [[[Int(EV_KEY), Int(BTN_EAST), 1], [Int(EV_SYN), Int(SYN_REPORT), 0]]])
    }

    @Test func releaseAllWritesOneReleaseFramePerDeviceNotAtRest() throws {
        let pair = try SocketPair()
        let set = try PipeDeviceSet(capabilities: Fixture.all, fileDescriptor: pair.writeEnd)
        try set.send([
            Fixture.event(.gamepad, Code.evKey, Code.btnEast, 1),
            Fixture.event(.gamepad, Code.evAbs, Code.absY, 20000),
            Fixture.syn(.gamepad),
        ])
        _ = pair.messages()
        try set.releaseAll()
        try set.releaseAll()
        #expect(pair.messages().map(Self.triples) == [[
            [Int(EV_KEY), Int(BTN_EAST), 0], [Int(EV_ABS), Int(ABS_Y), 0], [Int(EV_SYN), Int(SYN_REPORT), 0],
        ]])
    }
}
