#if canImport(Glibc)
import Glibc
#endif
import EventVocabulary
import Mapping
import Testing
import Timebase
@testable import VirtualDevice

/// A set fitted to a new config keeps each device its description still fits, with what it
/// holds, and releases a device before replacing or dropping it. Built with the maker of devices
/// in memory the lost-device tests use (each device its own log): there is no `/dev/uinput` here.
@Suite("Device refit")
struct DeviceRefitTests {
    typealias Maker = LostDeviceTests.Maker

    static func press(_ device: OutputDeviceKind, _ code: UInt16, _ value: Int32 = 1) -> [OutputEvent] {
        [Fixture.event(device, Code.evKey, code, value), Fixture.syn(device)]
    }

    static let padAndMouse = Capabilities([.gamepad: Fixture.gamepad, .mouse: Fixture.mouse])

    /// The log of the one device of `kind` the maker made; fails when there is not exactly one.
    static func only(_ kind: OutputDeviceKind, of maker: Maker) throws -> EventLog {
        let made = maker.made.filter { $0.kind == kind }
        try #require(made.count == 1, "\(made.count) devices of \(kind) made")
        return made[0].log
    }

    @Test func aHeldGamepadStaysAsItIsWhenAKeyboardIsAdded() throws {
        let maker = Maker()
        let set = try maker.set(Self.padAndMouse)
        try set.send(Self.press(.gamepad, Code.btnSouth))
        let pad = try Self.only(.gamepad, of: maker)

        let refit = try set.refit(capabilities: Fixture.all)
        #expect(refit.fits == [.gamepad: .kept, .mouse: .kept, .keyboard: .added])
        #expect(refit.lines == ["keyboard: added for the new config"])
        // The same gamepad, still holding the button: no release, no press again.
        #expect(try Self.only(.gamepad, of: maker) === pad)
        #expect(pad.events == Self.press(.gamepad, Code.btnSouth))
        #expect(set.state(.gamepad)?.isDown(Code.btnSouth) == true)
        #expect(set.kinds == [.gamepad, .mouse, .keyboard])
        // The new keyboard takes its frames.
        try set.send(Self.press(.keyboard, Code.keyC))
        #expect(try Self.only(.keyboard, of: maker).events == Self.press(.keyboard, Code.keyC))
        try set.send(Self.press(.gamepad, Code.btnSouth, 0))
        #expect(pad.events == Self.press(.gamepad, Code.btnSouth) + Self.press(.gamepad, Code.btnSouth, 0))
    }

    @Test func aGamepadWhoseCodesChangeIsReleasedThenReplaced() throws {
        let maker = Maker()
        let set = try maker.set(Self.padAndMouse)
        try set.send(Self.press(.gamepad, Code.btnSouth))
        let pad = DeviceCapabilities(keys: Fixture.gamepad.keys + [Code.btnDpadUp], absoluteAxes: Fixture.gamepad.absoluteAxes)
        var capabilities = Self.padAndMouse
        capabilities[.gamepad] = pad

        let refit = try set.refit(capabilities: capabilities)
        #expect(refit.fits == [.gamepad: .remade, .mouse: .kept])
        #expect(maker.gamepads.count == 2)
        // The old one let go of the button, that frame written, before the new one was made.
        #expect(maker.gamepads[0].events == Self.press(.gamepad, Code.btnSouth) + Self.press(.gamepad, Code.btnSouth, 0))
        #expect(maker.made.map(\.kind) == [.gamepad, .mouse, .gamepad])
        #expect(maker.gamepads[1].events.isEmpty)
        #expect(set.state(.gamepad)?.isAtRest == true)
        try set.send(Self.press(.gamepad, Code.btnDpadUp))
        #expect(maker.gamepads[1].events == Self.press(.gamepad, Code.btnDpadUp))
        #expect(maker.gamepads[0].events.count == 4)
    }

    @Test func aKindNoLongerNeededIsReleasedAndGoes() throws {
        let maker = Maker()
        let set = try maker.set()
        try set.send(Self.press(.keyboard, Code.keyC))
        let keyboard = try Self.only(.keyboard, of: maker)

        let refit = try set.refit(capabilities: Self.padAndMouse)
        #expect(refit.fits == [.gamepad: .kept, .mouse: .kept, .keyboard: .dropped])
        #expect(keyboard.events == Self.press(.keyboard, Code.keyC) + Self.press(.keyboard, Code.keyC, 0))
        #expect(set.kinds == [.gamepad, .mouse])
        #expect(set.state(.keyboard) == nil)
        #expect(throws: VirtualDeviceError.noSuchDevice("keyboard")) { try set.send(Self.press(.keyboard, Code.keyC)) }
        #expect(maker.made.count == 3)
    }

    @Test func aDeviceThatCannotBeMadeChangesNothing() throws {
        let maker = Maker()
        let set = try maker.set(Self.padAndMouse)
        try set.send(Self.press(.gamepad, Code.btnSouth))
        maker.refusals = 1
        #expect(throws: VirtualDeviceError.uinputMissing) { try set.refit(capabilities: Fixture.all) }
        #expect(set.kinds == [.gamepad, .mouse])
        #expect(set.state(.gamepad)?.isDown(Code.btnSouth) == true)
        // Tried again, it fits.
        #expect(try set.refit(capabilities: Fixture.all).fits[.keyboard] == .added)
        #expect(set.kinds == [.gamepad, .mouse, .keyboard])
    }

    @Test func theSameCapabilitiesKeepEveryDeviceAndAnotherIdentityRemakesTheGamepad() throws {
        let maker = Maker()
        let set = try maker.set()
        #expect(try set.refit(capabilities: Fixture.all).keepsEveryDevice)
        #expect(maker.made.count == 3)
        let padOnly = Capabilities([.gamepad: XboxPad.capabilities])
        let refit = try set.refit(capabilities: padOnly, gamepadIdentity: .xbox360)
        #expect(refit.fits == [.gamepad: .remade, .mouse: .dropped, .keyboard: .dropped])
        #expect(set.summary == ["gamepad: \"\(DeviceIdentity.xbox360.name)\" at an unknown node"])
    }

    @Test func aLostDeviceWaitsToBeMadeAgainUnlessItsDescriptionChanges() throws {
        let maker = Maker()
        let set = try maker.set(Self.padAndMouse)
        maker.gamepads[0].failsWith = ENODEV
        maker.refusals = 1
        #expect(throws: VirtualDeviceError.deviceLost(device: LostDeviceTests.gamepadName, errno: ENODEV, remade: false)) {
            try set.send(Self.press(.gamepad, Code.btnSouth))
        }
        // Described the same: still lost, still waiting for its delay.
        #expect(try set.refit(capabilities: Fixture.all).fits[.gamepad] == .kept)
        #expect(set.summary.contains("gamepad: \"\(LostDeviceTests.gamepadName)\" lost, to be made again"))
        // Described differently: made at once from the new description.
        let pad = DeviceCapabilities(keys: Fixture.gamepad.keys + [Code.btnDpadUp], absoluteAxes: Fixture.gamepad.absoluteAxes)
        var capabilities = Fixture.all
        capabilities[.gamepad] = pad
        #expect(try set.refit(capabilities: capabilities).fits[.gamepad] == .remade)
        #expect(maker.gamepads.count == 2)
        try set.send(Self.press(.gamepad, Code.btnDpadUp))
        #expect(maker.gamepads[1].events == Self.press(.gamepad, Code.btnDpadUp))
    }

    @Test func aSetOnADescriptorOrInMemoryFitsToo() throws {
        let set = try VirtualDeviceSet.recording(capabilities: Self.padAndMouse)
        try set.send(Self.press(.gamepad, Code.btnSouth))
        #expect(try set.refit(capabilities: Fixture.all).fits[.keyboard] == .added)
        try set.send(Self.press(.keyboard, Code.keyC))
        #expect(set.events == Self.press(.gamepad, Code.btnSouth) + Self.press(.keyboard, Code.keyC))
        let descriptorSet = try VirtualDeviceSet(capabilities: Self.padAndMouse, fileDescriptor: -1)
        #expect(try descriptorSet.refit(capabilities: Fixture.all).fits[.keyboard] == .added)
        #expect(descriptorSet.kinds == [.gamepad, .mouse, .keyboard])
    }
}
