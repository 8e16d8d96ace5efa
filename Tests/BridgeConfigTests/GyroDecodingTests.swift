import Mapping
import Testing
@testable import BridgeConfig

@Suite("profile gyro")
struct GyroDecodingTests {
    static func gyro(_ text: String) throws(ConfigErrors) -> GyroSettings? {
        try ConfigDecoder.decodeAll(Array("[profile.aim]\n\(text)\n".utf8)).mapping.profiles.first?.gyro
    }

    static func errors(_ text: String) -> [String] {
        ConfigDiagnostics.of("[profile.aim]\n\(text)\n")
    }

    @Test func everyKeyIsRead() throws {
        let settings = try #require(try Self.gyro("""
        [profile.aim.gyro]
        output = "right-stick"
        sens = 2.0
        max-sens = 4.0
        min-threshold = 5
        max-threshold = 75
        counts-per-degree = 12.5
        vertical = 0.8
        cutoff-speed = 1
        cutoff-recovery = 4
        smooth-threshold = 6
        smooth-time = "200ms"
        off = "touch"
        space = "player-turn"
        invert-x = true
        invert-y = true
        stick-speed = 300
        undeadzone-inner = 0.1
        undeadzone-outer = 0.95
        power = 1.5
        auto-calibrate = true
        """))
        var expected = GyroSettings()
        expected.output = .rightStick
        (expected.minSens, expected.maxSens) = (2, 4)
        (expected.minThreshold, expected.maxThreshold) = (5, 75)
        expected.countsPerDegree = 12.5
        expected.vertical = 0.8
        (expected.cutoffSpeed, expected.cutoffRecovery) = (1, 4)
        (expected.smoothThreshold, expected.smoothTime) = (6, .milliseconds(200))
        expected.enabling = .offWhileTouched
        expected.space = .playerTurn
        (expected.invertX, expected.invertY) = (true, true)
        expected.stickSpeed = 300
        (expected.undeadzoneInner, expected.undeadzoneOuter, expected.power) = (0.1, 0.95, 1.5)
        expected.autoCalibrate = true
        #expect(settings == expected)
    }

    @Test func aTableWorksLikeTheInlineForm() throws {
        let settings = try Self.gyro("[profile.aim.gyro]\ntoggle = \"app\"\nsens = 3")
        #expect(settings?.enabling == .toggle(.app))
        #expect(settings?.minSens == 3 && settings?.maxSens == 3)
        #expect(try Self.gyro("gyro = { on = \"home\" }")?.enabling == .onWhileHeld(.home))
        #expect(try Self.gyro("gyro = { off = \"volume-up\" }")?.enabling == .offWhileHeld(.volumeUp))
        #expect(try Self.gyro("click = \"BTN_LEFT\"") == nil, "no gyro key: no gyro")
    }

    @Test func mistakesNameFileLineColumnAndTheChoices() {
        #expect(Self.errors("gyro = { on = \"touch\" }").first?.hasPrefix(
            "c.toml:2:15: error: profile.aim.gyro.on: unknown gyro on button 'touch'; expected one of") == true)
        #expect(Self.errors("gyro = { on = \"home\", off = \"touch\" }") == [
            "c.toml:2:23: error: profile.aim.gyro: give one of on, off and toggle, not on and off",
        ])
        #expect(Self.errors("gyro = { min-threshold = 50, max-threshold = 10 }") == [
            "c.toml:2:26: error: profile.aim.gyro: min-threshold (50) must not be above max-threshold (10)",
        ])
        #expect(Self.errors("gyro = { output = \"stick\" }").first?.contains("unknown output 'stick'") == true)
        #expect(Self.errors("gyro = { sensitivity = 2 }").first?.contains("unknown key 'sensitivity'") == true)
        #expect(Self.errors("gyro = { sens = 2 }\nair-mouse = { always = true }") == [
            "c.toml:2:8: error: profile.aim.gyro: the gyro and air-mouse both move the pointer; keep one (gyro = { ... } does all the air mouse does)",
        ])
        #expect(Self.errors("gyro = { output = \"left-stick\" }\ntouchpad = { mode = \"stick\" }") == [
            "c.toml:2:8: error: profile.aim.gyro: the left-stick is already the touchpad x-axis of this profile; send the gyro to the other stick",
        ])
        #expect(Self.errors("gyro = { smooth-time = \"2s\" }").first?.hasPrefix("c.toml:2:24: error: profile.aim.gyro.smooth-time") == true)
    }
}
