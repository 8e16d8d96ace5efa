#if canImport(Glibc)
import Glibc
#endif
import CEvdev
import EventVocabulary
import Mapping
import Testing
@testable import VirtualDevice

/// The motion-sensor device as libevdev builds it, without uinput: the kernel's
/// `INPUT_PROP_ACCELEROMETER` convention, read back from the libevdev description.
@Suite("Motion-sensor device layout")
struct MotionDeviceLayoutTests {
    static let accelerometer = UInt16(INPUT_PROP_ACCELEROMETER)

    @Test func carriesTheSensorAxesTimestampAndProperty() throws {
        let device = try LaidOut.device(.motion, MotionSensors.capabilities)
        LaidOut.expectProjectIdentity(of: device, name: "Daydream Controller Motion Sensors", product: 0x0004)
        #expect(device.properties == [Self.accelerometer])
        #expect(device.codes(type: Code.evAbs) == (UInt16(ABS_X)...UInt16(ABS_RZ)).map { $0 })
        #expect(device.codes(type: UInt16(EV_MSC)) == [UInt16(MSC_TIMESTAMP)])
        #expect(!device.has(type: Code.evKey) && !device.has(type: Code.evRel))
        for code in [ABS_X, ABS_Y, ABS_Z] {
            #expect(device.absInfo(UInt16(code)) == AbsInfo(minimum: -65536, maximum: 65536, resolution: 8192))
        }
        for code in [ABS_RX, ABS_RY, ABS_RZ] {
            #expect(device.absInfo(UInt16(code)) == AbsInfo(minimum: -2_097_152, maximum: 2_097_152, resolution: 1024))
        }
    }

    @Test func onlyTheMotionDeviceHasTheProperty() throws {
        for (kind, codes) in [(OutputDeviceKind.gamepad, Fixture.gamepad), (.mouse, Fixture.mouse), (.keyboard, Fixture.keyboard)] {
            let device = try EvdevDevice(DeviceLayout.description(for: kind, capabilities: codes))
            #expect(device.properties.isEmpty, "\(kind)")
            #expect(!device.has(type: UInt16(EV_MSC)), "\(kind)")
        }
    }

    @Test func aButtonOnTheMotionDeviceIsRefused() {
        LaidOut.expectRefused(.motion, MotionSensors.capabilities, addingKey: Code.btnSouth, with: .unsupportedCodes(
            device: "Daydream Controller Motion Sensors", codes: ["BTN_SOUTH"],
            reason: "they belong on another device (a motion with them would be misclassified)"))
    }

    @Test func identityIsTheFourthOfTheProjectsOwn() {
        let ids = [DeviceIdentity.gamepad, .mouse, .keyboard, .motion].map { [$0.bus, $0.vendor, $0.product] }
        #expect(Set(ids).count == 4)
        #expect(DeviceIdentity.motion.name.hasSuffix(" Motion Sensors"), "a suffix SDL never takes for a gamepad")
    }

    @Test func undeclaredMiscCodesAreRefusedLikeOtherCodes() throws {
        let pad = try DeviceLayout.description(for: .gamepad, capabilities: Fixture.gamepad)
        let sink = try VirtualDeviceSet.recording(capabilities: Capabilities([.gamepad: pad.capabilities]))
        #expect(throws: VirtualDeviceError.undeclaredCode(device: "Daydream Controller Gamepad", code: "MSC_TIMESTAMP")) {
            try sink.send([OutputEvent(device: .gamepad, type: UInt16(EV_MSC), code: UInt16(MSC_TIMESTAMP), value: 1)], at: .zero)
        }
    }
}

/// The motion-sensor device through real uinput, read back from its event node with libevdev.
/// Skipped (with a printed reason) where `/dev/uinput` is missing; the end-to-end VM runs it.
@Suite("Real uinput motion sensors", .enabled(if: UInputAvailability.isAvailable, "needs /dev/uinput"))
struct MotionUInputDeviceTests {
    @Test func readsBackWithItsPropertyAndFrames() throws {
        let (set, reader) = try LaidOut.onUInput(.motion, MotionSensors.capabilities)
        #expect(reader.evdev.identity == DeviceIdentity.motion)
        #expect(reader.evdev.properties == [UInt16(INPUT_PROP_ACCELEROMETER)])
        #expect(reader.evdev.absInfo(UInt16(ABS_Y))?.resolution == 8192)
        #expect(reader.evdev.absInfo(UInt16(ABS_RY))?.resolution == 1024)
        try set.send([
            OutputEvent(device: .motion, type: UInt16(EV_ABS), code: UInt16(ABS_Y), value: 8192),
            OutputEvent(device: .motion, type: UInt16(EV_ABS), code: UInt16(ABS_RY), value: -29335),
            OutputEvent(device: .motion, type: UInt16(EV_MSC), code: UInt16(MSC_TIMESTAMP), value: 16000),
            OutputEvent(device: .motion, type: Code.evSyn, code: Code.synReport, value: 0),
        ])
        let syn = [Int32(EV_SYN), Int32(SYN_REPORT), 0]
        #expect(reader.events() == [
            [Int32(EV_ABS), Int32(ABS_Y), 8192], [Int32(EV_ABS), Int32(ABS_RY), -29335],
            [Int32(EV_MSC), Int32(MSC_TIMESTAMP), 16000], syn,
        ])
    }
}
