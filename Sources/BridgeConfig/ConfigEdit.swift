import Descriptors

/// One change to a config's text, made where the parser says the value is written, so every
/// other byte (comments, order, blank lines, spacing) stays as it was: what the editor page
/// saves. The result is checked before it is returned: an edit that would make the config
/// invalid gives its diagnostics and no text.
public struct ConfigEdit: Sendable, Equatable {
    /// The profile the setting belongs to.
    public var profile: String
    /// The setting's key in the profile (`click`, `touchpad`, `gyro`).
    public var key: String
    /// The new value as TOML text (`"KEY_SPACE"`, `{ mode = "flick" }`); nil removes the key.
    public var value: String?

    /// Sets (or, with a nil `value`, removes) `key` in `profile`.
    public init(profile: String, key: String, value: String?) {
        self.profile = profile
        self.key = key
        self.value = value
    }

    /// Why an edit was not made.
    public enum Failure: Error, Sendable, Equatable {
        /// The text before the edit does not parse: it must be fixed by hand first.
        case unparsable(ConfigDiagnostic)
        /// The profile is written in a way an edit in place cannot extend (an inline table, or
        /// dotted keys elsewhere): the message says so.
        case notEditable(String)
        /// The edited text is not a valid config: its diagnostics, at their positions in it.
        case invalid([ConfigDiagnostic])
        /// The file could not be read or written: the system's reason.
        case file(String)
        /// The file is not what the edit was made against: another program (or page) wrote it
        /// since; the message says so.
        case changed(String)
        /// The profile, the key or the value has a line break or another control character:
        /// written in place, it could start a line of its own and change more than the one key.
        case notOneLine(String)
    }

    /// Makes the edit in the file at `path`: read, edited, checked, then written in its place
    /// (`FileReplacement`: a reader sees the old file or the new one). The file is untouched
    /// unless the edited text is a valid config, and unless it is still what the edit was made
    /// against: the file as `revision` (`revision(of:)`) names it when one is given, and the file
    /// as read here, compared again as the new one takes its place
    /// (`FileReplacement.write(_:to:replacing:)`). The new text on success.
    public func apply(toFileAt path: String, revision: String? = nil) -> Result<String, Failure> {
        ConfigFileEdit.apply(toFileAt: path, revision: revision) { applied(to: $0) }
    }

    /// The revision of a config's bytes, as `apply(toFileAt:revision:)` compares it: 16 hex
    /// digits (FNV-1a, 64 bits), which tell one version of a file from the next.
    public static func revision(of bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// `text` with the edit made; its diagnostics when the result would not load.
    public func applied(to text: String) -> Result<String, Failure> {
        for (part, written) in [("profile name", profile), ("key", key), ("value", value ?? "")] where Self.hasControlCharacter(written) {
            return .failure(.notOneLine("the \(part) must be one line of text, without line breaks or control characters"))
        }
        let document: TOMLDocument
        do {
            document = try TOMLDocument(parsing: Array(text.utf8))
        } catch {
            return .failure(.unparsable(ConfigDiagnostic(at: error.position, error.message)))
        }
        let lines = SourceLines(text)
        let edited: String
        switch locate(in: document, lines) {
        case .value(let written):
            guard written.end != .unknown, let start = lines.offset(of: written.position), let end = lines.offset(of: written.end) else {
                return .failure(.notEditable("\(profile).\(key) is written across a table header; edit it by hand"))
            }
            edited = value.map { lines.replacing(start..<end, with: $0) } ?? lines.removingLine(containing: written.position)
        case .table(let afterLine):
            guard let value else { return .success(text) }
            edited = lines.inserting("\(Self.bareOrQuoted(key)) = \(value)", afterLine: afterLine)
        case .noProfile:
            guard let value else { return .success(text) }
            let separator = text.isEmpty || text.hasSuffix("\n\n") ? "" : text.hasSuffix("\n") ? "\n" : "\n\n"
            edited = text + separator + "[profile.\(Self.bareOrQuoted(profile))]\n\(Self.bareOrQuoted(key)) = \(value)\n"
        case .notEditable(let reason):
            return .failure(.notEditable(reason))
        }
        do {
            _ = try ConfigDecoder.decodeAll(Array(edited.utf8))
        } catch {
            return .failure(.invalid(error.diagnostics))
        }
        return .success(edited)
    }

    private enum Place {
        /// The key is written: its value.
        case value(TOMLValue)
        /// The profile's `[profile.NAME]` table is written, without the key: the line to add it after.
        case table(afterLine: Int)
        /// No profile of that name.
        case noProfile
        case notEditable(String)
    }

    private func locate(in document: TOMLDocument, _ lines: SourceLines) -> Place {
        guard let profiles = document.root["profile"]?.value.table, let entry = profiles[profile] else { return .noProfile }
        guard let table = entry.value.table else { return .notEditable("profile.\(profile) is not a table") }
        if let written = table[key] { return .value(written.value) }
        // A `[profile.NAME]` header starts at its line; an inline table or dotted keys do not
        // give a place to add a line that stays inside the profile.
        let header = entry.value.position
        guard lines.scalar(at: header) == "[" else {
            return .notEditable("profile.\(profile) is written inline; add \(key) by hand")
        }
        // After its last line of keys: a sub-table with a header of its own (`[profile.NAME.gyro]`)
        // comes after them, and a line added below that would land in it.
        let keys = table.entries.filter { lines.scalar(at: $0.value.position) != "[" }
        let last = keys.map { max($0.value.end.line, $0.value.position.line) }.max() ?? header.line
        guard table.entries.allSatisfy({ $0.keyPosition.line >= header.line }) else {
            return .notEditable("profile.\(profile) is written with dotted keys outside its table; add \(key) by hand")
        }
        return .table(afterLine: max(last, header.line))
    }

    /// Whether `text` has a control character other than a tab (a line break among them).
    static func hasControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }
    }

    /// `key` as TOML writes it: bare when it can be, else quoted.
    static func bareOrQuoted(_ key: String) -> String {
        let bare = !key.isEmpty && key.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
        }
        guard !bare else { return key }
        var quoted = "\""
        for character in key {
            if character == "\\" || character == "\"" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }
}
