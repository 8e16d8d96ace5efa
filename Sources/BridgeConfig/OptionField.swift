import EventVocabulary
import Mapping

/// One key of an options table (`air-mouse = { ... }`) and how its value reads into the
/// setting it belongs to. A table's fields are at once the keys it allows and their readers,
/// so the two cannot drift apart.
struct OptionField<Settings>: Sendable {
    /// The key as written in the config.
    let key: String
    /// Reads the key, when the table has it, into the settings; a bad value is recorded and
    /// makes the reader invalid.
    let read: @Sendable (inout OptionReader, inout Settings, inout ConfigReader) -> Void

    /// A number within `range`.
    static func number(_ key: String, in range: ClosedRange<Double>, _ field: WritableKeyPath<Settings, Double> & Sendable) -> Self {
        Self(key: key) { options, settings, reader in
            options.number(key, in: range, into: &settings[keyPath: field], reader: &reader)
        }
    }

    /// `true` or `false`.
    static func boolean(_ key: String, _ field: WritableKeyPath<Settings, Bool> & Sendable) -> Self {
        Self(key: key) { options, settings, reader in
            options.boolean(key, into: &settings[keyPath: field], reader: &reader)
        }
    }

    /// One of a choice's names.
    static func choice<Choice: RawRepresentable & CaseIterable & Sendable>(
        _ key: String, _ field: WritableKeyPath<Settings, Choice> & Sendable
    ) -> Self where Choice.RawValue == String {
        Self(key: key) { options, settings, reader in
            options.choice(key, into: &settings[keyPath: field], reader: &reader)
        }
    }

    /// An `ABS_*` axis the gamepad carries.
    static func absoluteAxis(_ key: String, _ field: WritableKeyPath<Settings, UInt16> & Sendable) -> Self {
        Self(key: key) { options, settings, reader in
            options.absoluteAxis(key, into: &settings[keyPath: field], reader: &reader)
        }
    }

    /// `device`, which must carry the codes the settings emit as read so far: put it last.
    static func device(
        _ field: WritableKeyPath<Settings, OutputDeviceKind> & Sendable,
        carrying codes: @escaping @Sendable (Settings) -> [(type: UInt16, code: UInt16)]
    ) -> Self {
        Self(key: ConfigReader.deviceKey) { options, settings, reader in
            options.device(into: &settings[keyPath: field], carrying: codes(settings), reader: &reader)
        }
    }
}

extension ConfigReader {
    /// `value` at `path` read field by field over `defaults`: nil when it is not a table (a
    /// diagnostic says `expected`) or a value is wrong. A key no field names is flagged.
    mutating func settings<Settings>(
        _ value: TOMLValue, at path: KeyPath, expected: String, fields: [OptionField<Settings>], defaults: Settings
    ) -> Settings? {
        guard var options = options(of: value, at: path, expected: expected, allowed: fields.map(\.key)) else { return nil }
        var settings = defaults
        for field in fields {
            field.read(&options, &settings, &self)
        }
        return options.valid ? settings : nil
    }
}
