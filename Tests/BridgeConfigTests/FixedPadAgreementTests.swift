import EventVocabulary
import Mapping
import Testing
import VirtualDevice
@testable import BridgeConfig

/// `identity = "xbox360"` and `"dualsense"`: what `check-config` accepts is what the device
/// can be created with.
@Suite("Fixed pads: config check and device layout agree")
struct FixedPadAgreementTests {
    static let identities: [GamepadIdentity] = [.xbox360, .dualsense]

    /// The gamepad `text` describes, created as the identity's pad; nil when the config check refuses the text.
    static func padDescription(_ text: String, _ identity: GamepadIdentity) throws -> DeviceDescription? {
        let header = "[gamepad]\nidentity = \"\(identity.rawValue)\"\n"
        guard let configuration = try? ConfigDecoder.decode(header + text) else { return nil }
        let codes = try #require(configuration.capabilities[.gamepad])
        return try DeviceLayout.description(for: .gamepad, capabilities: codes, gamepadIdentity: identity)
    }

    @Test func everyIdentityOfAFixedPadIsHere() {
        #expect(GamepadIdentity.allCases.filter { $0.fixedPad != nil } == Self.identities)
        #expect(FixedPad.dualsense.capabilities.keys
            == (XboxPad.capabilities.keys + [EventCode.btnTl2, EventCode.btnTr2]).sorted())
    }

    @Test("every gamepad button the check accepts is one the pad has, and every pad button is accepted",
          arguments: identities)
    func buttons(identity: GamepadIdentity) throws {
        var accepted: [UInt16] = []
        for name in EventCodeNames.allNames(type: EventType.key) {
            guard let code = EventCodeNames.resolve(name, types: [EventType.key])?.code,
                  OutputDeviceKind.routeKey(code) == .gamepad else { continue }
            if try Self.padDescription("[profile.p]\nclick = \"\(name)\"\n", identity) != nil { accepted.append(code) }
        }
        #expect(accepted == identity.fixedPad?.capabilities.keys)
    }

    @Test("every stick or tilt axis the check accepts is one the pad has with the stick's range",
          arguments: identities)
    func axes(identity: GamepadIdentity) throws {
        var acceptedByStick: [UInt16] = []
        var acceptedByTilt: [UInt16] = []
        for name in EventCodeNames.allNames(type: EventType.abs) {
            let code = try #require(EventCodeNames.resolve(name, types: [EventType.abs])?.code)
            let other = code == EventCode.absY ? "ABS_X" : "ABS_Y"
            let stick = "[profile.p]\ntouchpad = { mode = \"stick\", x-axis = \"\(name)\", y-axis = \"\(other)\" }\n"
            if try Self.padDescription(stick, identity) != nil { acceptedByStick.append(code) }
            if try Self.padDescription("[profile.p]\ntilt = { axis = \"\(name)\" }\n", identity) != nil {
                acceptedByTilt.append(code)
            }
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
        for identity in Self.identities {
            let description = try Self.padDescription("[profile.p]\nclick = \"BTN_SOUTH\"\ntouchpad = \(mode)\n", identity)
            #expect((description != nil) == accepted, "\(identity)")
        }
    }

    @Test("check-config refuses the d-pad as trigger-happy buttons, which device creation would",
          arguments: identities)
    func triggerHappy(identity: GamepadIdentity) throws {
        let text = "[gamepad]\nidentity = \"\(identity.rawValue)\"\n[profile.p]\nclick = \"BTN_TRIGGER_HAPPY1\"\n"
        #expect(throws: ConfigErrors.self) { try ConfigDecoder.decode(text) }
        let codes = DeviceCapabilities(keys: [EventCode.btnTriggerHappy1])
        #expect(throws: VirtualDeviceError.self) {
            try DeviceLayout.description(for: .gamepad, capabilities: codes, gamepadIdentity: identity)
        }
    }

    @Test("a dualsense profile may press L2 and R2 as buttons, which an Xbox 360 pad refuses")
    func dualSenseTriggerButtons() throws {
        let text = "[profile.p]\nclick = \"BTN_TL2\"\napp = \"BTN_TR2\"\n"
        let description = try #require(try Self.padDescription(text, .dualsense))
        #expect(description.identity == .gamepad)
        #expect(description.capabilities.keys == FixedPad.dualsense.capabilities.keys)
        #expect(try Self.padDescription(text, .xbox360) == nil)
        let message = "[gamepad]\nidentity = \"dualsense\"\n[profile.p]\nclick = \"BTN_C\"\n"
        #expect {
            try ConfigDecoder.decode(message)
        } throws: { error in
            "\(error)".contains("BTN_C is not a button of a DualSense ([gamepad] identity = \"dualsense\"); "
                + "expected one of BTN_SOUTH, BTN_EAST, BTN_NORTH, BTN_WEST, BTN_TL, BTN_TR, BTN_TL2, BTN_TR2")
        }
    }
}
