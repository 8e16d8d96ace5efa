import CEvdev
import EventVocabulary
import Mapping
import Testing
@testable import VirtualDevice

/// The absolute pointer as libevdev builds it, without uinput: what udev's input_id needs to
/// make it a mouse (absolute x and y with a mouse button, no `BTN_TOUCH`, no tool, no
/// `INPUT_PROP_DIRECT`) and libinput an absolute pointer.
@Suite("Absolute pointer device layout")
struct PointerDeviceLayoutTests {
    @Test func carriesTheScreenAxesAndMouseButtonsAndNothingElse() throws {
        let device = try LaidOut.device(.pointer, AbsolutePointer.capabilities)
        LaidOut.expectProjectIdentity(of: device, name: "Daydream Controller Pointer", product: 0x0005)
        #expect(device.properties.isEmpty, "not INPUT_PROP_DIRECT: a pointer, not a touchscreen")
        #expect(device.codes(type: Code.evAbs) == [UInt16(ABS_X), UInt16(ABS_Y)])
        #expect(device.codes(type: Code.evKey) == [UInt16(BTN_LEFT), UInt16(BTN_RIGHT), UInt16(BTN_MIDDLE)])
        #expect(!device.has(type: Code.evRel) && !device.has(type: UInt16(EV_MSC)))
        for code in [ABS_X, ABS_Y] {
            #expect(device.absInfo(UInt16(code)) == AbsInfo(minimum: 0, maximum: 32767, value: 16384))
        }
    }

    @Test func aRelativeAxisOnThePointerIsRefused() {
        var codes = AbsolutePointer.capabilities
        codes.insertRelative(UInt16(REL_X))
        #expect(throws: VirtualDeviceError.self) {
            try DeviceLayout.description(for: .pointer, capabilities: codes)
        }
    }

    @Test func identityIsTheFifthOfTheProjectsOwn() {
        let ids = [DeviceIdentity.gamepad, .mouse, .keyboard, .motion, .pointer].map { [$0.bus, $0.vendor, $0.product] }
        #expect(Set(ids).count == 5)
    }
}

/// The absolute pointer through real uinput, read back from its event node with libevdev.
/// Skipped (with a printed reason) where `/dev/uinput` is missing; the end-to-end VM runs it.
@Suite("Real uinput absolute pointer", .enabled(if: UInputAvailability.isAvailable, "needs /dev/uinput"))
struct PointerUInputDeviceTests {
    @Test func startsCentredAndReadsBackItsFrames() throws {
        let (set, reader) = try LaidOut.onUInput(.pointer, AbsolutePointer.capabilities)
        #expect(reader.evdev.identity == DeviceIdentity.pointer)
        #expect(reader.evdev.absInfo(UInt16(ABS_X))?.value == 16384)
        try set.send([
            OutputEvent(device: .pointer, type: UInt16(EV_ABS), code: UInt16(ABS_X), value: 24575),
            OutputEvent(device: .pointer, type: UInt16(EV_ABS), code: UInt16(ABS_Y), value: 8192),
            OutputEvent(device: .pointer, type: Code.evSyn, code: Code.synReport, value: 0),
        ])
        #expect(reader.events() == [
            [Int32(EV_ABS), Int32(ABS_X), 24575], [Int32(EV_ABS), Int32(ABS_Y), 8192], [Int32(EV_SYN), Int32(SYN_REPORT), 0],
        ])
    }
}
