/// A config's profiles as an editor shows them: each setting's key, its value as written (the
/// exact text, for showing and for editing in place) and as parsed, and where it is. Read from
/// the text alone, so a config that does not decode still shows what it says.
public struct ConfigOutline: Sendable {
    /// One `key = value` of a profile.
    public struct Setting: Sendable {
        /// The key (`app`, `touchpad`, `chords`).
        public let key: String
        /// The value's text exactly as written; empty when the parser gave no end (a table with
        /// a header of its own, such as `[profile.NAME.chords]`).
        public let text: String
        /// The value as parsed.
        public let value: TOMLValue
    }

    /// One `[profile.NAME]`.
    public struct Profile: Sendable {
        /// The profile's name.
        public let name: String
        /// Its settings, in the file's order.
        public let settings: [Setting]
    }

    /// The profiles, in the file's order.
    public let profiles: [Profile]
    /// `[bridge] profile`, when written.
    public let startingProfile: String?

    /// The outline of `text`; throws its syntax error when it is not TOML.
    public init(parsing text: String) throws(TOMLSyntaxError) {
        let document = try TOMLDocument(parsing: Array(text.utf8))
        let lines = SourceLines(text)
        startingProfile = document.root["bridge"]?.value.table?["profile"]?.value.string
        let tables = document.root["profile"]?.value.table?.entries ?? []
        profiles = tables.map { entry in
            let settings = (entry.value.table?.entries ?? []).map { setting in
                Setting(key: setting.key, text: Self.writtenText(of: setting.value, in: lines), value: setting.value)
            }
            return Profile(name: entry.key, settings: settings)
        }
    }

    private static func writtenText(of value: TOMLValue, in lines: SourceLines) -> String {
        guard value.end != .unknown, let start = lines.offset(of: value.position), let end = lines.offset(of: value.end), start <= end else {
            return ""
        }
        return lines.text(start..<end)
    }
}
