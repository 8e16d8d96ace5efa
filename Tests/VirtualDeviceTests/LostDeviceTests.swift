#if canImport(Glibc)
import Glibc
#endif
import EventVocabulary
import Mapping
import Testing
import Timebase
@testable import VirtualDevice

/// A device lost under the set (its writes fail with `ENODEV`, as uinput's do once the device
/// is destroyed under the bridge) is dropped and made again, at rest. The set is built with a
/// maker of devices in memory whose writes can be made to fail: there is no `/dev/uinput` here.
@Suite("Lost devices")
struct LostDeviceTests {
    static let gamepadName = "Daydream Controller Gamepad"

    /// Every device the set asked for, in order, each writing into a log of its own.
    final class Maker {
        var made: [(kind: OutputDeviceKind, log: EventLog)] = []
        /// How many attempts to refuse, from the next one on.
        var refusals = 0
        var now = MonotonicTime.zero

        func set(_ capabilities: Capabilities = Fixture.all) throws -> VirtualDeviceSet {
            try VirtualDeviceSet(capabilities: capabilities, clock: { self.now }) { kind, description throws(VirtualDeviceError) in
                if self.refusals > 0 {
                    self.refusals -= 1
                    throw .uinputMissing
                }
                let log = EventLog()
                self.made.append((kind, log))
                return MadeDevice(frames: DeviceFrameWriter(description, kind: kind, log: log), uinput: nil)
            }
        }

        /// The logs of every gamepad made, oldest first.
        var gamepads: [EventLog] { made.filter { $0.kind == .gamepad }.map(\.log) }
    }

    static func press(_ code: UInt16) -> [OutputEvent] {
        [Fixture.event(.gamepad, Code.evKey, code, 1), Fixture.syn(.gamepad)]
    }

    @Test func aDeviceWhoseWritesFailWithENODEVIsMadeAgainAtRestAndTakesTheNextFrame() throws {
        let maker = Maker()
        let set = try maker.set()
        try set.send(Self.press(Code.btnSouth))
        #expect(set.state(.gamepad)?.isDown(Code.btnSouth) == true)
        let first = try #require(maker.gamepads.first)

        first.failsWith = ENODEV
        #expect(throws: VirtualDeviceError.deviceLost(device: Self.gamepadName, errno: ENODEV, remade: true)) {
            try set.send(Self.press(Code.btnEast))
        }
        #expect(maker.gamepads.count == 2)
        // The fresh device holds nothing: the press made on the lost one is not carried over.
        #expect(set.state(.gamepad)?.isDown(Code.btnSouth) == false)
        #expect(set.state(.gamepad)?.isAtRest == true)

        try set.send([Fixture.event(.gamepad, Code.evAbs, Code.absX, 1200), Fixture.syn(.gamepad)])
        let second = maker.gamepads[1]
        #expect(second.events == [Fixture.event(.gamepad, Code.evAbs, Code.absX, 1200), Fixture.syn(.gamepad)])
        #expect(first.events == Self.press(Code.btnSouth))
        // The other devices were left as they were.
        #expect(maker.made.count == Fixture.all.deviceKinds.count + 1)
        try set.send([Fixture.event(.mouse, Code.evRel, Code.relX, 2), Fixture.syn(.mouse)])
        #expect(maker.made.first { $0.kind == .mouse }?.log.events.count == 2)
    }

    @Test func aDeviceThatCannotBeMadeAgainIsTriedWithAGrowingDelay() throws {
        let maker = Maker()
        let set = try maker.set()
        maker.gamepads[0].failsWith = ENODEV
        maker.refusals = 2
        #expect(throws: VirtualDeviceError.deviceLost(device: Self.gamepadName, errno: ENODEV, remade: false)) {
            try set.send(Self.press(Code.btnSouth))
        }
        #expect(maker.refusals == 1)
        #expect(set.summary.contains("gamepad: \"\(Self.gamepadName)\" lost, to be made again"))

        // Before the first delay (half a second): not tried, the frame is refused with the same reason.
        #expect(DeviceRemaker.firstDelay == .milliseconds(500))
        maker.now = maker.now + .milliseconds(499)
        #expect(throws: VirtualDeviceError.deviceLost(device: Self.gamepadName, errno: ENODEV, remade: false)) {
            try set.send(Self.press(Code.btnSouth))
        }
        #expect(maker.refusals == 1)
        // The first delay passed: tried, refused again; the next wait is twice as long.
        maker.now = maker.now + .milliseconds(1)
        #expect(throws: VirtualDeviceError.deviceLost(device: Self.gamepadName, errno: ENODEV, remade: false)) {
            try set.send(Self.press(Code.btnSouth))
        }
        #expect(maker.refusals == 0)
        maker.now = maker.now + DeviceRemaker.firstDelay
        #expect(throws: VirtualDeviceError.deviceLost(device: Self.gamepadName, errno: ENODEV, remade: false)) {
            try set.send(Self.press(Code.btnSouth))
        }
        #expect(maker.gamepads.count == 1)
        maker.now = maker.now + DeviceRemaker.firstDelay
        try set.send(Self.press(Code.btnEast))
        #expect(maker.gamepads.count == 2)
        #expect(maker.gamepads[1].events == Self.press(Code.btnEast))
        #expect(set.state(.gamepad)?.isDown(Code.btnSouth) == false)
    }

    @Test func aDeviceLostWhenEverythingIsReleasedIsMadeAgainAtRest() throws {
        let maker = Maker()
        let set = try maker.set()
        try set.send(Self.press(Code.btnSouth))
        maker.gamepads[0].failsWith = ENODEV
        #expect(throws: VirtualDeviceError.deviceLost(device: Self.gamepadName, errno: ENODEV, remade: true)) {
            try set.releaseAll()
        }
        #expect(maker.gamepads.count == 2)
        #expect(set.state(.gamepad)?.isAtRest == true)
        try set.releaseAll()
        #expect(maker.gamepads[1].events.isEmpty, "a fresh device has nothing to release")
    }

    @Test func otherWriteFailuresLeaveTheDeviceInPlace() throws {
        let maker = Maker()
        let set = try maker.set()
        maker.gamepads[0].failsWith = EAGAIN
        #expect(throws: VirtualDeviceError.writeFailed(device: Self.gamepadName, errno: EAGAIN)) {
            try set.send(Self.press(Code.btnSouth))
        }
        #expect(maker.gamepads.count == 1)
        maker.gamepads[0].failsWith = nil
        try set.send(Self.press(Code.btnEast))
        // The same device, which catches up on what it missed.
        #expect(maker.gamepads[0].events == [
            Fixture.event(.gamepad, Code.evKey, Code.btnSouth, 1), Fixture.event(.gamepad, Code.evKey, Code.btnEast, 1),
            Fixture.syn(.gamepad),
        ])
    }
}
