import CEvdev
import DaydreamProtocol
import EventVocabulary
import Mapping
import Testing
import Timebase
@testable import BridgeConfig

@Suite("Decoding details")
struct DecodingTests {
    @Test("controllers by address, upper-cased; per-button hold time; profile actions")
    func controllersAndActions() throws {
        let configuration = try ConfigDecoder.decode("""
        [gamepad]
        identity = "xbox360"

        [profile.a]
        click = { tap = "profile:b", hold = "next-profile", hold-time = "1.5s" }
        app = ["KEY_LEFTCTRL", "KEY_C"]
        home = "none"

        [profile."b"]
        click = "previous-profile"

        [controller."c0:dd:ee:00:00:01"]
        profile = "b"
        """)
        #expect(configuration.gamepadIdentity == .xbox360)
        #expect(configuration.controllerProfiles == ["C0:DD:EE:00:00:01": "b"])
        #expect(configuration.startingProfileName(forController: "c0:dd:ee:00:00:01") == "b")
        #expect(configuration.startingProfileName(forController: nil) == "a")
        let a = try #require(configuration.profile(named: "a"))
        #expect(a.click == .tapHold(tap: .profile("b"), hold: .nextProfile, holdTime: .seconds(1.5)))
        #expect(a.app == .plain(.keys([UInt16(KEY_LEFTCTRL), UInt16(KEY_C)])))
        #expect(a.home == .plain(.none))
        #expect(configuration.profile(named: "b")?.click == .plain(.previousProfile))
    }

    @Test("device names where a setting's output goes; naming the default changes nothing")
    func outputDevices() throws {
        let named = try ConfigDecoder.decode("""
        [profile.a]
        touchpad = { mode = "stick", device = "gamepad" }
        air-mouse = { always = true, device = "mouse" }
        tilt = { axis = "ABS_RX", device = "gamepad" }

        [profile.b]
        touchpad = { mode = "scroll", device = "mouse" }
        """)
        let plain = try ConfigDecoder.decode("""
        [profile.a]
        touchpad = { mode = "stick" }
        air-mouse = { always = true }
        tilt = { axis = "ABS_RX" }

        [profile.b]
        touchpad = { mode = "scroll" }
        """)
        #expect(named == plain)
        #expect(named.profile(named: "a")?.tilt?.device == .gamepad)
        #expect(named.capabilities[.mouse]?.hasRelative(EventCode.relWheel) == true)
        #expect(throws: ConfigErrors.self) {
            try ConfigDecoder.decode("[profile.a]\ntilt = { axis = \"ABS_RX\", device = \"keyboard\" }\n")
        }
    }

    @Test("motion-sensors = true adds the motion device and leaves the pad, xbox360 included, as it was")
    func motionSensors() throws {
        let pad = "[gamepad]\nidentity = \"xbox360\"\n[profile.a]\nclick = \"BTN_SOUTH\"\ntouchpad = { mode = \"stick\" }\n"
        let without = try ConfigDecoder.decode(pad)
        let with = try ConfigDecoder.decode(pad + "motion-sensors = true\n")
        #expect(without.capabilities[.motion] == nil)
        #expect(with.capabilities[.motion] == MotionSensors.capabilities)
        #expect(with.capabilities[.gamepad] == without.capabilities[.gamepad])
        #expect(with.gamepadIdentity == .xbox360)
        #expect(with.profile(named: "a")?.motionSensors == true)
        #expect(try ConfigDecoder.decode(pad + "motion-sensors = false\n") == without)
    }

    @Test("pointer = { ... } adds the pointer device with its settings, defaults for keys left out")
    func pointer() throws {
        let base = "[profile.a]\nclick = \"BTN_LEFT\"\n"
        let without = try ConfigDecoder.decode(base)
        let with = try ConfigDecoder.decode(base + "home = \"recenter\"\npointer = { field-of-view-x = 60, beta = 0.5 }\n")
        #expect(without.capabilities[.pointer] == nil)
        #expect(with.capabilities[.pointer] == AbsolutePointer.capabilities)
        #expect(with.capabilities[.mouse] == without.capabilities[.mouse])
        var expected = PointerSettings()
        expected.fieldOfViewX = 60
        expected.beta = 0.5
        #expect(with.profile(named: "a")?.pointer == expected)
        let all = try ConfigDecoder.decode(
            "[profile.a]\npointer = { field-of-view-x = 30, field-of-view-y = 20, min-cutoff = 2, beta = 0, d-cutoff = 3 }\n")
        let settings = try #require(all.profile(named: "a")?.pointer)
        #expect([settings.fieldOfViewX, settings.fieldOfViewY, settings.minimumCutoff, settings.beta, settings.derivativeCutoff]
            == [30, 20, 2, 0, 3])
    }

    @Test("profiles keep file order, chords too")
    func order() throws {
        let configuration = try ConfigDecoder.decode("""
        [profile.zulu]
        click = "BTN_LEFT"
        [profile.alpha]
        click = "BTN_LEFT"
        [profile.alpha.chords]
        "volume-up+volume-down" = "KEY_B"
        "click+home" = "KEY_A"
        [profile.mike]
        click = "BTN_LEFT"
        """)
        #expect(configuration.profiles.map(\.name) == ["zulu", "alpha", "mike"])
        let chords = try #require(configuration.profile(named: "alpha")).chords
        #expect(chords.map(\.buttons) == [[.volumeUp, .volumeDown], [.click, .home]])
    }

    @Test("every error is collected, not just the first")
    func collectsAll() {
        #expect {
            _ = try ConfigDecoder.decode("""
            [profile.x]
            click = "BTN_SOTH"
            app = "BTN_EEST"
            hme = "BTN_MODE"
            """)
        } throws: { error in
            guard let errors = error as? ConfigErrors else { return false }
            return errors.diagnostics.map(\.position.line) == [2, 3, 4]
        }
    }

    @Test("diagnostics format as FILE:LINE:COLUMN: error: MESSAGE")
    func format() {
        let diagnostic = ConfigDiagnostic(at: SourcePosition(line: 3, column: 9), "boom")
        #expect(diagnostic.formatted(file: "a.toml") == "a.toml:3:9: error: boom")
    }
}
