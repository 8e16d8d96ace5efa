import CEvdev
import EventVocabulary
import Mapping
import Testing
@testable import VirtualDevice

/// The SDL_GameControllerDB line and GUIDs of the gamepad identities.
@Suite("Game controller mapping")
struct GameControllerMappingTests {
    private func line(_ capabilities: DeviceCapabilities, _ identity: GamepadIdentity = .default) throws -> String {
        var classified = Capabilities([.gamepad: capabilities])
        classified.addClassificationCodes()
        let codes = try #require(classified[.gamepad])
        return GameControllerMapping.line(for: try DeviceLayout.description(for: .gamepad, capabilities: codes, gamepadIdentity: identity))
    }

    /// SDL 2.26.5's own database line for this pad (src/joystick/SDL_gamecontrollerdb.h) has
    /// exactly these bindings: the generator numbers xpad's codes as SDL does.
    @Test func xbox360LineIsSDLsDatabaseEntry() throws {
        #expect(try line(Fixture.gamepad, .xbox360) == "030000005e0400008e02000014010000,Microsoft X-Box 360 pad,"
            + "a:b0,b:b1,back:b6,dpdown:h0.4,dpleft:h0.8,dpright:h0.2,dpup:h0.1,guide:b8,leftshoulder:b4,leftstick:b9,"
            + "lefttrigger:a2,leftx:a0,lefty:a1,rightshoulder:b5,rightstick:b10,righttrigger:a5,rightx:a3,righty:a4,"
            + "start:b7,x:b2,y:b3,platform:Linux,")
    }

    /// The default config's gamepad: A, B, shoulders, Start, Guide and the stick. Without the
    /// line Godot 3 takes TL/TR (buttons 2 and 3) for X and Y.
    @Test func defaultConfigsGamepadLine() throws {
        let pad = DeviceCapabilities(
            keys: [Code.btnSouth, Code.btnEast, UInt16(BTN_TL), UInt16(BTN_TR), Code.btnStart, Code.btnMode],
            absoluteAxes: [AbsoluteAxis(code: Code.absX, info: .stick), AbsoluteAxis(code: Code.absY, info: .stick)])
        #expect(try line(pad) == "060000007dda00000100000001000000,Daydream Controller Gamepad,"
            + "a:b0,b:b1,guide:b5,leftshoulder:b2,leftx:a0,lefty:a1,rightshoulder:b3,start:b4,platform:Linux,")
    }

    @Test func dpadButtonsHatAndButtonTriggers() throws {
        let buttons = DeviceCapabilities(keys: [Code.btnDpadUp, UInt16(BTN_DPAD_DOWN), UInt16(BTN_DPAD_LEFT), UInt16(BTN_DPAD_RIGHT)])
        // BTN_SOUTH and BTN_EAST are b0 and b1; the d-pad buttons come after them.
        #expect(try line(buttons).hasSuffix(",a:b0,b:b1,dpdown:b3,dpleft:b4,dpright:b5,dpup:b2,leftx:a0,lefty:a1,platform:Linux,"))
        let hat = DeviceCapabilities(
            keys: [UInt16(BTN_TL2), UInt16(BTN_TR2)],
            absoluteAxes: [AbsoluteAxis(code: UInt16(ABS_RX), info: .stick), AbsoluteAxis(code: UInt16(ABS_HAT0X), info: .hat),
                           AbsoluteAxis(code: UInt16(ABS_HAT0Y), info: .hat)])
        // The hat is not an axis; ABS_RX without ABS_RY is no right stick.
        #expect(try line(hat).hasSuffix(",a:b0,dpdown:h0.4,dpleft:h0.8,dpright:h0.2,dpup:h0.1,lefttrigger:b1,leftx:a0,lefty:a1,"
            + "righttrigger:b2,platform:Linux,"))
    }

    /// Godot 3's GUID (bus, vendor, product, version, no checksum) is the line's GUID.
    @Test func guidsWithAndWithoutSDLsNameChecksum() {
        #expect(GameControllerMapping.guid(for: .gamepad, withNameChecksum: false) == "060000007dda00000100000001000000")
        #expect(GameControllerMapping.guid(for: .gamepad, withNameChecksum: true) == "060009be7dda00000100000001000000")
        // SDL names 045e:028e "Xbox 360 Controller" and sums that name.
        #expect(GameControllerMapping.sdlName(for: .xbox360) == "Xbox 360 Controller")
        #expect(GameControllerMapping.guid(for: .xbox360, withNameChecksum: true) == "030003f05e0400008e02000014010000")
    }

    /// SDL_crc16: the CRC-16/ARC check value of "123456789" is 0xBB3D.
    @Test func nameChecksumIsCRC16ARC() {
        #expect(GameControllerMapping.nameChecksum("123456789") == 0xBB3D)
        #expect(GameControllerMapping.nameChecksum("") == 0)
    }
}
