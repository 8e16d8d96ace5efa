#if canImport(Glibc)
import Glibc
#endif
import CEvdev
import EventVocabulary
import Mapping
import Testing
@testable import VirtualDevice

/// A `VirtualDeviceSet` on a file descriptor (`run --write-events`): the uinput devices' checks
/// and frames, without uinput. A SOCK_SEQPACKET socket keeps write boundaries, so each message read is one `write(2)`.
@Suite("Device set on a file descriptor")
struct DescriptorDeviceSetTests {
    typealias SocketPair = InputEventWriterTests.SocketPair

    static func triples(_ events: [input_event]) -> [[Int]] {
        events.map { [Int($0.type), Int($0.code), Int($0.value)] }
    }

    @Test func eachDeviceFrameIsOneWriteOfRawEvents() throws {
        let pair = try SocketPair()
        let set = try VirtualDeviceSet(capabilities: Fixture.all, fileDescriptor: pair.writeEnd)
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
        let set = try VirtualDeviceSet(capabilities: Capabilities([.gamepad: Fixture.gamepad]), fileDescriptor: pair.writeEnd)
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
        let set = try VirtualDeviceSet(capabilities: Fixture.all, fileDescriptor: pair.writeEnd)
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

/// A frame whose write fails does not count as written: a release that did not reach the device
/// is written again by the next frame and by `releaseAll`. The socket is made full (non-blocking,
/// so the write fails with EAGAIN) and then drained.
@Suite("Failed writes")
struct FailedWriteTests {
    typealias SocketPair = InputEventWriterTests.SocketPair
    static let east = [Int(EV_KEY), Int(BTN_EAST)]

    static func fill(_ pair: SocketPair) throws {
        let flags = fcntl(pair.writeEnd, F_GETFL)
        try #require(fcntl(pair.writeEnd, F_SETFL, flags | O_NONBLOCK) == 0)
        var junk = [UInt8](repeating: 0, count: 512)
        while junk.withUnsafeMutableBytes({ write(pair.writeEnd, $0.baseAddress, $0.count) }) > 0 {}
        try #require(errno == EAGAIN)
    }

    static func releaseEast(_ set: VirtualDeviceSet) {
        #expect(throws: VirtualDeviceError.writeFailed(device: "Daydream Controller Gamepad", errno: EAGAIN)) {
            try set.send([Fixture.event(.gamepad, Code.evKey, Code.btnEast, 0), Fixture.syn(.gamepad)])
        }
    }

    static func pressEast(_ pair: SocketPair) throws -> VirtualDeviceSet {
        let set = try VirtualDeviceSet(capabilities: Fixture.all, fileDescriptor: pair.writeEnd)
        try set.send([Fixture.event(.gamepad, Code.evKey, Code.btnEast, 1), Fixture.syn(.gamepad)])
        _ = pair.messages()
        return set
    }

    /// The set says the state as written, keeps no events (only a recording set does) and has no
    /// uinput device to hand out.
    @Test func stateIsTheWrittenOneWithoutEventsOrUInputDevices() throws {
        let pair = try SocketPair()
        let set = try Self.pressEast(pair)
        #expect(set.state(.gamepad)?.isDown(Code.btnEast) == true)
        #expect(set.state(.mouse)?.isAtRest == true)
        #expect(set.events.isEmpty && set.lines.isEmpty)
        #expect(set.kinds == [.gamepad, .mouse, .keyboard] && set[.gamepad] == nil)
        try Self.fill(pair)
        Self.releaseEast(set)
        #expect(set.state(.gamepad)?.isDown(Code.btnEast) == true, "a release whose write failed is not the state")
    }

    @Test func releaseAllWritesAReleaseWhoseWriteFailed() throws {
        let pair = try SocketPair()
        let set = try Self.pressEast(pair)
        try Self.fill(pair)
        Self.releaseEast(set)
        _ = pair.messages()
        try set.releaseAll()
        #expect(pair.messages().map(DescriptorDeviceSetTests.triples) == [[Self.east + [0], [Int(EV_SYN), Int(SYN_REPORT), 0]]])
    }

    @Test func theNextFrameCarriesAReleaseWhoseWriteFailed() throws {
        let pair = try SocketPair()
        let set = try Self.pressEast(pair)
        try Self.fill(pair)
        Self.releaseEast(set)
        _ = pair.messages()
        try set.send([Fixture.event(.gamepad, Code.evKey, Code.btnSouth, 1), Fixture.syn(.gamepad)])
        try set.send([Fixture.event(.gamepad, Code.evKey, Code.btnSouth, 0), Fixture.syn(.gamepad)])
        try set.releaseAll()
        #expect(pair.messages().map(DescriptorDeviceSetTests.triples) == [
            [Self.east + [0], [Int(EV_KEY), Int(BTN_SOUTH), 1], [Int(EV_SYN), Int(SYN_REPORT), 0]],
            [[Int(EV_KEY), Int(BTN_SOUTH), 0], [Int(EV_SYN), Int(SYN_REPORT), 0]],
        ])
    }

    /// The written state follows each frame's axes: after a failed write, the next frame
    /// carries the axis back from where the last written frame left it.
    @Test func theNextFrameCarriesAnAxisWhoseWriteFailed() throws {
        let pair = try SocketPair()
        let set = try VirtualDeviceSet(capabilities: Fixture.all, fileDescriptor: pair.writeEnd)
        try set.send([Fixture.event(.gamepad, Code.evAbs, Code.absX, 1200), Fixture.syn(.gamepad)])
        _ = pair.messages()
        try Self.fill(pair)
        #expect(throws: VirtualDeviceError.self) {
            try set.send([Fixture.event(.gamepad, Code.evAbs, Code.absX, 0), Fixture.syn(.gamepad)])
        }
        _ = pair.messages()
        try set.send([Fixture.event(.gamepad, Code.evAbs, Code.absY, 500), Fixture.syn(.gamepad)])
        #expect(pair.messages().map(DescriptorDeviceSetTests.triples) == [
            [[Int(EV_ABS), Int(ABS_X), 0], [Int(EV_ABS), Int(ABS_Y), 500], [Int(EV_SYN), Int(SYN_REPORT), 0]],
        ])
    }

    @Test func aFailedReleaseAllIsWrittenByTheNextOne() throws {
        let pair = try SocketPair()
        let set = try Self.pressEast(pair)
        try Self.fill(pair)
        #expect(throws: VirtualDeviceError.self) { try set.releaseAll() }
        _ = pair.messages()
        try set.releaseAll()
        try set.releaseAll()
        #expect(pair.messages().map(DescriptorDeviceSetTests.triples) == [[Self.east + [0], [Int(EV_SYN), Int(SYN_REPORT), 0]]])
    }
}
