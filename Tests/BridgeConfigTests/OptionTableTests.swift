import Testing
@testable import BridgeConfig

@Suite("options tables")
struct OptionTableTests {
    /// The diagnostics of a profile whose `table` holds one key set to a date, a value no option takes.
    static func errors(table: String, key: String) -> [String] {
        let text = "[profile.p]\n\(table) = { \(key) = 1979-05-27 }\n"
        do {
            _ = try ConfigDecoder.decodeAll(Array(text.utf8))
            return []
        } catch {
            return error.formatted(file: "c.toml")
        }
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

    @Test func aKeyNoFieldNamesIsFlaggedWithTheNearestOne() {
        #expect(Self.errors(table: "air-mouse", key: "sped")
            == ["c.toml:2:15: error: unknown key 'sped' in [profile.p.air-mouse]; did you mean 'speed'?"])
    }
}
