import CEvdev
import EventVocabulary
import Mapping
import Testing
@testable import VirtualDevice

/// The libevdev description built from capabilities, checked through a
/// libevdev device without uinput (`libevdev_new` + enabled codes).
@Suite("Device layouts")
struct DeviceLayoutTests {
    @Test func gamepadCarriesExactlyItsCodesPlusNothingOfAMouse() throws {
        let device = try LaidOut.device(.gamepad, Fixture.gamepad)
        #expect(device.codes(type: Code.evKey) == [Code.btnSouth, Code.btnEast, Code.btnStart, Code.btnMode].sorted())
        #expect(device.codes(type: Code.evAbs) == [Code.absX, Code.absY])
        #expect(device.codes(type: Code.evRel).isEmpty)
        #expect(!device.has(type: Code.evRel))
        #expect(!device.hasForceFeedback)
        #expect(!(UInt16(BTN_MOUSE)...UInt16(BTN_TASK)).contains { device.has(type: Code.evKey, code: $0) })
    }

    @Test func gamepadIdentityIsTheProjectsOwn() throws {
        let device = try EvdevDevice(DeviceLayout.description(for: .gamepad, capabilities: Fixture.gamepad))
        LaidOut.expectProjectIdentity(of: device, name: "Daydream Controller Gamepad", product: 0x0001)
        #expect(device.name == "Daydream Controller Gamepad")
    }

    @Test func axesStartAtRestWithFuzzZero() throws {
        var capabilities = Fixture.gamepad
        capabilities.insertAbsolute(Code.absZ, AbsInfo(minimum: 0, maximum: 255))
        capabilities.insertAbsolute(Code.absHat0x, .hat)
        let device = try EvdevDevice(DeviceLayout.description(for: .gamepad, capabilities: capabilities))
        let stick = try #require(device.absInfo(Code.absX))
        #expect(stick.minimum == -32768 && stick.maximum == 32767 && stick.value == 0 && stick.fuzz == 0)
        #expect(device.absInfo(Code.absZ)?.value == 0)
        #expect(device.absInfo(Code.absHat0x)?.minimum == -1)
        #expect(device.absInfo(Code.absHat0x)?.fuzz == 0)
        #expect(device.absInfo(Code.absHat0y) == nil)
    }

    @Test func buttonlessGamepadStillGetsBtnGamepadAndASecondButton() throws {
        let tiltOnly = DeviceCapabilities(absoluteAxes: [AbsoluteAxis(code: Code.absX, info: .stick)])
        let device = try EvdevDevice(DeviceLayout.description(for: .gamepad, capabilities: tiltOnly))
        #expect(device.has(type: Code.evKey, code: UInt16(BTN_GAMEPAD)))
        #expect(device.codes(type: Code.evKey) == [Code.btnSouth, Code.btnEast])
    }

    /// A d-pad-only pad carries the centred left stick SDL's test without udev needs.
    @Test func dpadOnlyGamepadStillHasACentredStick() throws {
        let dpad = DeviceCapabilities(keys: [Code.btnDpadUp, UInt16(BTN_DPAD_DOWN), UInt16(BTN_DPAD_LEFT), UInt16(BTN_DPAD_RIGHT)])
        let device = try EvdevDevice(DeviceLayout.description(for: .gamepad, capabilities: dpad))
        #expect(device.codes(type: Code.evAbs) == [Code.absX, Code.absY])
        for code in [Code.absX, Code.absY] {
            let axis = try #require(device.absInfo(code))
            #expect(axis.minimum == -32768 && axis.maximum == 32767 && axis.value == 0 && axis.fuzz == 0)
        }
    }

    @Test func gamepadWithAMouseButtonIsRefused() throws {
        LaidOut.expectRefused(.gamepad, Fixture.gamepad, addingKey: Code.btnLeft, with: .unsupportedCodes(
            device: "Daydream Controller Gamepad", codes: ["BTN_LEFT"],
            reason: "they belong on another device (a gamepad with them would be misclassified)"))
    }

    @Test func scrollOnlyMouseIsStillAMouseToUdev() throws {
        let scroll = DeviceCapabilities(relativeAxes: [Code.relWheel, Code.relWheelHiRes])
        let device = try EvdevDevice(DeviceLayout.description(for: .mouse, capabilities: scroll))
        #expect(device.codes(type: Code.evRel) == [Code.relX, Code.relY, Code.relWheel, Code.relWheelHiRes])
        #expect(device.codes(type: Code.evKey) == [Code.btnLeft])
        #expect(device.identity.product == 0x0002 && device.identity.bus == UInt16(BUS_VIRTUAL))
    }

    @Test func keyboardCarriesItsKeysOnly() throws {
        let device = try EvdevDevice(DeviceLayout.description(for: .keyboard, capabilities: Fixture.keyboard))
        #expect(device.codes(type: Code.evKey) == [Code.keyLeftCtrl, Code.keyC, Code.keyVolumeDown, Code.keyVolumeUp].sorted())
        #expect(!device.has(type: Code.evAbs) && !device.has(type: Code.evRel))
        #expect(!device.has(type: UInt16(EV_REP)))
        #expect(device.name == "Daydream Controller Keyboard")
    }

    @Test func xbox360IdentityHasXpadsLayout() throws {
        let device = try LaidOut.device(.gamepad, Fixture.gamepad, gamepadIdentity: .xbox360)
        #expect(device.identity == DeviceIdentity(name: "Microsoft X-Box 360 pad", bus: UInt16(BUS_USB),
                                                  vendor: 0x045E, product: 0x028E, version: 0x0114))
        let xpadKeys: [Int32] = [BTN_A, BTN_B, BTN_X, BTN_Y, BTN_TL, BTN_TR, BTN_SELECT, BTN_START, BTN_MODE, BTN_THUMBL, BTN_THUMBR]
        #expect(device.codes(type: Code.evKey) == xpadKeys.map { UInt16($0) }.sorted())
        let xpadAxes: [Int32] = [ABS_X, ABS_Y, ABS_Z, ABS_RX, ABS_RY, ABS_RZ, ABS_HAT0X, ABS_HAT0Y]
        #expect(device.codes(type: Code.evAbs) == xpadAxes.map { UInt16($0) }.sorted())
        #expect(device.absInfo(Code.absZ)?.maximum == 255)
        #expect(device.absInfo(UInt16(ABS_RY))?.minimum == -32768)
        #expect(!device.hasForceFeedback)
    }

    @Test func xbox360RefusesCodesXpadDoesNotHave() {
        var capabilities = Fixture.gamepad
        capabilities.insertKey(Code.btnDpadUp)
        do {
            _ = try DeviceLayout.description(for: .gamepad, capabilities: capabilities, gamepadIdentity: .xbox360)
            Issue.record("BTN_DPAD_UP was accepted on an xbox360 pad")
        } catch {
            #expect(error.description.hasPrefix("the virtual device \"Microsoft X-Box 360 pad\" cannot emit BTN_DPAD_UP: "))
            #expect(error.description.contains("use the hat for the d-pad"))
        }
    }

    /// SDL refuses gamepads whose name ends in " Touchpad", " IMU", " Motion
    /// Sensors" or " Accelerometer", starts with "uinput-" or "Mouse ", or
    /// contains " Keyboard" or "Trackpad".
    @Test(arguments: [DeviceIdentity.gamepad, DeviceIdentity.xbox360])
    func gamepadNamesAreOnesSDLAccepts(identity: DeviceIdentity) {
        let name = identity.name
        for suffix in [" Touchpad", " IMU", " Motion Sensors", " Accelerometer"] { #expect(!name.hasSuffix(suffix)) }
        for prefix in ["uinput-", "Mouse "] { #expect(!name.hasPrefix(prefix)) }
        for part in [" Keyboard", "Trackpad"] { #expect(!name.contains(part)) }
        #expect(name.utf8.count <= DeviceDescription.maximumNameBytes)
    }

    @Test func identitiesAreDistinct() {
        let ids = [DeviceIdentity.gamepad, .mouse, .keyboard].map { [$0.bus, $0.vendor, $0.product] }
        #expect(Set(ids).count == 3)
    }

    @Test func invalidAxisIsNamed() {
        let bad = DeviceCapabilities(absoluteAxes: [AbsoluteAxis(code: Code.absX, info: AbsInfo(minimum: 5, maximum: 5))])
        #expect(throws: VirtualDeviceError.invalidDescription("Daydream Controller Gamepad", "ABS_X has minimum 5 not below maximum 5")) {
            try DeviceLayout.description(for: .gamepad, capabilities: bad)
        }
        let outside = DeviceCapabilities(absoluteAxes: [AbsoluteAxis(code: Code.absY, info: AbsInfo(minimum: 1, maximum: 9, value: 10))])
        #expect(throws: VirtualDeviceError.invalidDescription("Daydream Controller Gamepad", "ABS_Y rests at 10, outside 1...9")) {
            try DeviceLayout.description(for: .gamepad, capabilities: outside)
        }
    }

    @Test func emptyDescriptionIsRefused() {
        #expect(throws: VirtualDeviceError.invalidDescription("Daydream Controller Keyboard", "it has no event codes")) {
            try EvdevDevice(DeviceDescription(identity: .keyboard, capabilities: DeviceCapabilities()))
        }
    }

    @Test func namesComeFromLibevdev() {
        #expect(EventCodeNames.name(type: Code.evKey, code: Code.btnSouth) == "BTN_SOUTH")
        // Between the last trigger-happy button and KEY_MAX: a code with no name.
        #expect(EventCodeNames.knownName(type: Code.evKey, code: 0x2fe) == nil)
        #expect(EventCodeNames.name(type: Code.evKey, code: 0x2fe) == "EV_KEY:0x2fe")
        #expect(EventCodeNames.name(type: 0x1e) == "EV_30")
        let allTypes = [EventCodeNames.key, EventCodeNames.relative, EventCodeNames.absolute]
        let wheel = EventCodeNames.resolve("REL_WHEEL_HI_RES", types: allTypes)
        #expect(wheel?.code == Code.relWheelHiRes)
        #expect(wheel?.type == Code.evRel)
        #expect(EventCodeNames.resolve("BTN_SOTH", types: allTypes) == nil)
        #expect(EventCodeNames.line(Fixture.event(.mouse, Code.evRel, Code.relX, -3)) == "mouse EV_REL REL_X -3")
    }
}
