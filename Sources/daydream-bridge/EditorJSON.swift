import BridgeConfig
import LocalHTTP

/// The JSON the editor page reads: a config's outline, the vocabulary of its choices, and TOML
/// values as JSON values.
enum EditorJSON {
    /// `{"starting": ..., "profiles": [{"name": ..., "settings": [{"key", "text", "value", "line", "column"}]}]}`.
    static func outline(_ outline: ConfigOutline) -> JSONValue {
        let profiles = outline.profiles.map { profile -> JSONValue in
            let settings = profile.settings.map { setting -> JSONValue in
                [
                    "key": .string(setting.key), "text": .string(setting.text), "value": value(setting.value),
                    "line": .integer(setting.value.position.line), "column": .integer(setting.value.position.column),
                ]
            }
            return ["name": .string(profile.name), "settings": .array(settings)]
        }
        return ["starting": .optional(outline.startingProfile.map(JSONValue.string)), "profiles": .array(profiles)]
    }

    /// The buttons, special actions, key codes with their devices, touchpad modes and gyro keys:
    /// the same for every request, so made once.
    static let vocabulary: JSONValue = [
        "buttons": .strings(ConfigVocabulary.buttons),
        "actions": .strings(ConfigVocabulary.specialActions),
        "profileSwitch": .string(ConfigVocabulary.profileSwitchPrefix),
        "tapHold": .strings(ConfigVocabulary.tapHoldKeys),
        "codes": .array(ConfigVocabulary.keyCodes.map { .strings([$0.name, $0.device]) }),
        "touchpadModes": .array(ConfigVocabulary.touchpadModes.map { ["mode": .string($0.mode), "options": .strings($0.keys)] }),
        "gyroKeys": .strings(ConfigVocabulary.gyroKeys),
    ]

    /// A TOML value as JSON: tables as objects (in order), dates and times as strings.
    static func value(_ value: TOMLValue) -> JSONValue {
        switch value.content {
        case .table(let table): .object(table.entries.map { (key: $0.key, value: Self.value($0.value)) })
        case .array(let elements): .array(elements.map(Self.value))
        case .string(let text), .date(let text), .time(let text), .dateTime(let text): .string(text)
        case .integer(let number): .integer(number)
        case .float(let number): .number(number)
        case .boolean(let flag): .bool(flag)
        }
    }

    /// A config's diagnostics: `{"diagnostics": [{"line", "column", "message", "syntax"}]}`; a
    /// syntax slip's message in the page's words (`SyntaxSlipWording`), toml++'s own as `parser`.
    static func diagnostics(_ diagnostics: [ConfigDiagnostic]) -> JSONValue {
        let items = diagnostics.map { diagnostic -> JSONValue in
            let position: [(key: String, value: JSONValue)] = [
                ("line", .integer(diagnostic.position.line)), ("column", .integer(diagnostic.position.column)),
            ]
            guard let sentence = SyntaxSlipWording.explained(diagnostic.message) else {
                return .object(position + [("message", .string(diagnostic.message)), ("syntax", .bool(false))])
            }
            return .object(position + [("message", .string(sentence)), ("syntax", .bool(true)), ("parser", .string(diagnostic.message))])
        }
        return ["diagnostics": .array(items)]
    }

    /// `"outline": {...}, "syntax": null`, or the outline null and the syntax error's diagnostics:
    /// the members `GET /api/config` and a saved setting end with.
    static func outlineMembers(_ text: String) -> [(key: String, value: JSONValue)] {
        do {
            return [("outline", outline(try ConfigOutline(parsing: text))), ("syntax", .null)]
        } catch {
            return [("outline", .null), ("syntax", diagnostics([ConfigDiagnostic(at: error.position, error.message)]))]
        }
    }
}
