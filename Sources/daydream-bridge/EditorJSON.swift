import BridgeConfig
import LocalHTTP

/// The JSON the editor page reads: a config's outline, the vocabulary of its choices, and TOML
/// values as JSON values.
enum EditorJSON {
    /// `{"starting": ..., "profiles": [{"name": ..., "settings": [{"key", "text", "value", "line", "column"}]}]}`.
    static func outline(_ outline: ConfigOutline) -> String {
        let profiles = outline.profiles.map { profile in
            let settings = profile.settings.map { setting in
                "{\"key\": \(JSONText.string(setting.key)), \"text\": \(JSONText.string(setting.text)), "
                    + "\"value\": \(value(setting.value)), \"line\": \(setting.value.position.line), "
                    + "\"column\": \(setting.value.position.column)}"
            }
            return "{\"name\": \(JSONText.string(profile.name)), \"settings\": [\(settings.joined(separator: ", "))]}"
        }
        let starting = outline.startingProfile.map(JSONText.string) ?? "null"
        return "{\"starting\": \(starting), \"profiles\": [\(profiles.joined(separator: ", "))]}"
    }

    /// The buttons, special actions, key codes with their devices, touchpad modes and gyro keys:
    /// the same for every request, so made once.
    static let vocabulary: String = {
        let codes = ConfigVocabulary.keyCodes.map { "[\(JSONText.string($0.name)), \(JSONText.string($0.device))]" }
        let modes = ConfigVocabulary.touchpadModes.map { mode in
            "{\"mode\": \(JSONText.string(mode.mode)), \"options\": \(strings(mode.keys))}"
        }
        return "{\"buttons\": \(strings(ConfigVocabulary.buttons)), "
            + "\"actions\": \(strings(ConfigVocabulary.specialActions)), "
            + "\"profileSwitch\": \(JSONText.string(ConfigVocabulary.profileSwitchPrefix)), "
            + "\"tapHold\": \(strings(ConfigVocabulary.tapHoldKeys)), "
            + "\"codes\": [\(codes.joined(separator: ", "))], "
            + "\"touchpadModes\": [\(modes.joined(separator: ", "))], "
            + "\"gyroKeys\": \(strings(ConfigVocabulary.gyroKeys))}"
    }()

    /// A TOML value as JSON: tables as objects (in order), dates and times as strings.
    static func value(_ value: TOMLValue) -> String {
        switch value.content {
        case .table(let table):
            "{" + table.entries.map { "\(JSONText.string($0.key)): \(Self.value($0.value))" }.joined(separator: ", ") + "}"
        case .array(let elements): "[" + elements.map(Self.value).joined(separator: ", ") + "]"
        case .string(let text), .date(let text), .time(let text), .dateTime(let text): JSONText.string(text)
        case .integer(let number): String(number)
        case .float(let number): number.isFinite ? "\(number)" : "null"
        case .boolean(let flag): flag ? "true" : "false"
        }
    }

    private static func strings(_ list: [String]) -> String {
        "[" + list.map(JSONText.string).joined(separator: ", ") + "]"
    }
}
