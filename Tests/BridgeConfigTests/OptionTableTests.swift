import Testing
@testable import BridgeConfig

@Suite("options tables")
struct OptionTableTests {
    /// The diagnostics of a profile whose `table` holds one key set to a date, a value no option takes.
    static func errors(table: String, key: String) -> [String] {
        errors(profileLine: "\(table) = { \(key) = 1979-05-27 }")
    }

    /// The diagnostics of a config whose one profile, `p`, is the line `profileLine`.
    static func errors(profileLine: String) -> [String] {
        ConfigDiagnostics.of("[profile.p]\n\(profileLine)\n")
    }

    /// A key the table allows but nothing reads would be accepted with any value: every key
    /// must be read, and its bad value named at its own path and column.
    @Test(arguments: [
        ("air-mouse", ConfigReader.airMouseKeys),
        ("tilt", ConfigReader.tiltKeys),
        ("pointer", ConfigReader.pointerKeys),
        ("gyro", ConfigReader.gyroKeys),
    ])
    func everyAllowedKeyIsRead(table: String, keys: [String]) {
        for key in keys {
            let column = "\(table) = { \(key) = ".count + 1
            let errors = Self.errors(table: table, key: key)
            #expect(errors.contains { $0.hasPrefix("c.toml:2:\(column): error: profile.p.\(table).\(key):") },
                    "\(table).\(key): \(errors)")
        }
    }

    /// The touchpad modes read their options by hand, beside a list of each mode's keys
    /// (`touchpadOptions`): the same check keeps that list and those reads together.
    @Test(arguments: ConfigReader.touchpadOptions.filter { !$0.keys.isEmpty })
    func everyTouchpadModeOptionIsRead(mode: String, keys: [String]) {
        for key in keys {
            let start = "touchpad = { mode = \"\(mode)\", \(key) = "
            let column = start.count + 1
            let errors = Self.errors(profileLine: start + "1979-05-27 }")
            #expect(errors.contains { $0.hasPrefix("c.toml:2:\(column): error: profile.p.touchpad.\(key):") },
                    "\(mode).\(key): \(errors)")
        }
    }

    @Test func aKeyNoFieldNamesIsFlaggedWithTheNearestOne() {
        #expect(Self.errors(table: "air-mouse", key: "sped")
            == ["c.toml:2:15: error: unknown key 'sped' in [profile.p.air-mouse]; did you mean 'speed'?"])
    }
}
