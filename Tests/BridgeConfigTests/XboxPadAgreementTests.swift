import Mapping
import Testing
import VirtualDevice
@testable import BridgeConfig

/// `identity = "xbox360"`: what `check-config` accepts is what the device can be created with.
@Suite("Xbox 360 pad: config check and device layout agree")
struct XboxPadAgreementTests {
    /// The gamepad `text` describes, created as the Xbox 360 pad; nil when the config check refuses the text.
    static func padDescription(_ text: String) throws -> DeviceDescription? {
        guard let configuration = try? ConfigDecoder.decode("[gamepad]\nidentity = \"xbox360\"\n" + text) else { return nil }
        let codes = try #require(configuration.capabilities[.gamepad])
        return try DeviceLayout.description(for: .gamepad, capabilities: codes, gamepadIdentity: .xbox360)
    }

    @Test("every gamepad button the check accepts is one the pad has, and every pad button is accepted")
    func buttons() throws {
        var accepted: [UInt16] = []
        for name in EventCodeNames.allNames(type: EventType.key) {
            guard let code = EventCodeNames.resolve(name, types: [EventType.key])?.code,
                  OutputDeviceKind.routeKey(code) == .gamepad else { continue }
            if try Self.padDescription("[profile.p]\nclick = \"\(name)\"\n") != nil { accepted.append(code) }
        }
        #expect(accepted == XboxPad.capabilities.keys)
    }

    @Test("every stick or tilt axis the check accepts is one the pad has with the stick's range")
    func axes() throws {
        var acceptedByStick: [UInt16] = []
        var acceptedByTilt: [UInt16] = []
        for name in EventCodeNames.allNames(type: EventType.abs) {
            let code = try #require(EventCodeNames.resolve(name, types: [EventType.abs])?.code)
            let other = code == EventCode.absY ? "ABS_X" : "ABS_Y"
            let stick = "[profile.p]\ntouchpad = { mode = \"stick\", x-axis = \"\(name)\", y-axis = \"\(other)\" }\n"
            if try Self.padDescription(stick) != nil { acceptedByStick.append(code) }
            if try Self.padDescription("[profile.p]\ntilt = { axis = \"\(name)\" }\n") != nil { acceptedByTilt.append(code) }
        }
        let sticks = [EventCode.absX, EventCode.absY, EventCode.absRx, EventCode.absRy]
        #expect(acceptedByStick == sticks)
        #expect(acceptedByTilt == sticks)
    }

    @Test("the touchpad modes the check accepts can be created; the d-pad of buttons is refused", arguments: [
        ("{ mode = \"dpad\" }", false), ("{ mode = \"dpad\", output = \"hat\" }", true), ("{ mode = \"stick\" }", true),
        ("{ mode = \"trackpad\" }", true), ("{ mode = \"scroll\" }", true), ("{ mode = \"wheel\" }", true),
        ("{ mode = \"none\" }", true),
    ])
    func touchpadModes(mode: String, accepted: Bool) throws {
        // The click keeps a gamepad in every profile, so each accepted one is created.
        let description = try Self.padDescription("[profile.p]\nclick = \"BTN_SOUTH\"\ntouchpad = \(mode)\n")
        #expect((description != nil) == accepted)
    }

    @Test("check-config refuses the d-pad as trigger-happy buttons, which device creation would")
    func triggerHappy() throws {
        let text = "[gamepad]\nidentity = \"xbox360\"\n[profile.p]\nclick = \"BTN_TRIGGER_HAPPY1\"\n"
        #expect(throws: ConfigErrors.self) { try ConfigDecoder.decode(text) }
        let codes = DeviceCapabilities(keys: [EventCode.btnTriggerHappy1])
        #expect(throws: VirtualDeviceError.self) {
            try DeviceLayout.description(for: .gamepad, capabilities: codes, gamepadIdentity: .xbox360)
        }
    }
}
