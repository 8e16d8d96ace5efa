import CEvdev
import EventVocabulary
import Testing
@testable import VirtualDevice

/// The touchpad as libevdev builds it, without uinput: what udev's input_id needs to call it a
/// touchpad (`BTN_TOOL_FINGER` with absolute x and y) and libinput to drive it as one: one
/// multitouch slot, the pad's size through the axes' resolution, a clickpad, not direct.
@Suite("Touchpad device layout")
struct TouchpadDeviceLayoutTests {
    @Test func carriesOneSlotTheSizeAndTheClickpadProperties() throws {
        let device = try LaidOut.device(.touchpad, TouchSurface.capabilities)
        LaidOut.expectProjectIdentity(of: device, name: "Daydream Controller Touchpad", product: 0x0006)
        #expect(device.properties == [UInt16(INPUT_PROP_POINTER), UInt16(INPUT_PROP_BUTTONPAD)])
        #expect(device.codes(type: Code.evKey) == [UInt16(BTN_LEFT), UInt16(BTN_TOOL_FINGER), UInt16(BTN_TOUCH)])
        #expect(device.codes(type: Code.evAbs) == [
            UInt16(ABS_X), UInt16(ABS_Y), UInt16(ABS_MT_SLOT), UInt16(ABS_MT_POSITION_X), UInt16(ABS_MT_POSITION_Y),
            UInt16(ABS_MT_TRACKING_ID),
        ])
        #expect(!device.has(type: Code.evRel))
        // 256 units at 8 a millimetre: a pad 32 mm across.
        for code in [ABS_X, ABS_Y, ABS_MT_POSITION_X, ABS_MT_POSITION_Y] {
            #expect(device.absInfo(UInt16(code)).map { [$0.minimum, $0.maximum, $0.resolution] } == [0, 255, 8])
        }
        #expect(device.absInfo(UInt16(ABS_MT_SLOT)).map { [$0.minimum, $0.maximum] } == [0, 0], "one slot")
    }

    @Test func aCodeOfAnotherKindIsRefused() {
        var codes = TouchSurface.capabilities
        codes.insertRelative(UInt16(REL_X))
        #expect(throws: VirtualDeviceError.self) { try DeviceLayout.description(for: .touchpad, capabilities: codes) }
        #expect(!OutputDeviceKind.touchpad.takesSettings)
    }

    @Test func identityIsTheSixthOfTheProjectsOwn() {
        let ids = [DeviceIdentity.gamepad, .mouse, .keyboard, .motion, .pointer, DeviceIdentity(.touchpad)].map { [$0.bus, $0.vendor, $0.product] }
        #expect(Set(ids).count == 6)
    }
}
