/// A change to a config's profiles as whole tables, made in the text so that every byte outside
/// the lines it must change stays (comments, order, blank lines, spacing): a profile added from a
/// preset or copied (its tables appended at the end), renamed (its headers and the values that
/// name it), or removed (its tables' lines). Like `ConfigEdit`, the result is checked before it is
/// returned: an edit that would make the config invalid gives its diagnostics and no text.
public enum ConfigProfileEdit: Sendable, Equatable {
    /// Appends `preset`'s profile (`ConfigPreset.profile`) as `[profile.NAME]`.
    case add(name: String, preset: ConfigPreset)
    /// Appends a copy of `profile` as `[profile.NAME]`.
    case copy(profile: String, name: String)
    /// Renames `profile` to `name`: its headers, `[bridge] profile`, a `[controller."ADDRESS"]`'s
    /// `profile` and every `"profile:OLD"` action.
    case rename(profile: String, name: String)
    /// Removes `profile`'s tables. Refused for the last profile (a config needs one) and for the
    /// one `[bridge] profile` names (new controllers start in it: name another there first).
    case remove(profile: String)

    /// Makes the edit in the file at `path`, as `ConfigEdit.apply(toFileAt:revision:)` does: the
    /// file untouched unless the result is a valid config and the file is still the one `revision`
    /// names. The new text on success.
    public func apply(toFileAt path: String, revision: String? = nil) -> Result<String, ConfigEdit.Failure> {
        ConfigFileEdit.apply(toFileAt: path, revision: revision) { applied(to: $0) }
    }

    /// `text` with the edit made; its diagnostics when the result would not load.
    public func applied(to text: String) -> Result<String, ConfigEdit.Failure> {
        let edited: String
        do {
            edited = try edit(text)
        } catch {
            return .failure(error)
        }
        do {
            _ = try ConfigDecoder.decodeAll(Array(edited.utf8))
        } catch {
            return .failure(.invalid(error.diagnostics))
        }
        return .success(edited)
    }

    private func edit(_ text: String) throws(ConfigEdit.Failure) -> String {
        let tables = try ProfileTables(text)
        switch self {
        case .add(let name, let preset):
            try Self.checkNew(name, in: tables)
            let source = try ProfileTables(preset.text)
            guard let profile = preset.profile else { throw .notEditable("the preset \(preset.name) has no profile") }
            return Self.appending(try Self.copied(profile, as: name, from: source), to: text)
        case .copy(let profile, let name):
            try Self.checkNew(name, in: tables)
            return Self.appending(try Self.copied(profile, as: name, from: tables), to: text)
        case .rename(let profile, let name):
            try Self.checkNew(name, in: tables)
            return try Self.renamed(profile, to: name, in: tables)
        case .remove(let profile):
            return try Self.removed(profile, from: tables)
        }
    }

    /// Refuses a new profile name that is empty, not one line, or taken.
    private static func checkNew(_ name: String, in tables: ProfileTables) throws(ConfigEdit.Failure) {
        guard !name.isEmpty, !ConfigEdit.hasControlCharacter(name) else {
            throw .notOneLine("a profile's name must be one line of text, without line breaks or control characters")
        }
        guard !tables.profileNames.contains(name) else {
            throw .notEditable("there is a profile \(name) already; choose another name")
        }
    }

    /// `profile`'s blocks from `tables`, as the lines of a profile named `name`: its headers
    /// renamed, its `applications` left out (a focus rule's pattern may be in one profile only),
    /// the blank lines at its end dropped.
    private static func copied(_ profile: String, as name: String, from tables: ProfileTables) throws(ConfigEdit.Failure) -> String {
        let headers = try tables.headers(of: profile)
        var left: Set<Int> = []
        if let applications = tables.document.root["profile"]?.value.table?[profile]?.value.table?["applications"] {
            let first = applications.keyPosition.line, last = max(applications.value.end.line, first)
            guard applications.value.end != .unknown, tables.lines[first - 1].drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("applications") else {
                throw .notEditable("profile.\(profile)'s applications share a line with another key; edit it by hand")
            }
            left = Set(first...last)
        }
        var copy: [String] = []
        for block in tables.blocks(of: headers) {
            for line in block where !left.contains(line) {
                if let header = headers.first(where: { $0.line == line }), let written = tables.writtenPath(of: header) {
                    let scalars = Array(tables.lines[line - 1].unicodeScalars)
                    let path = ["profile", name] + header.path.dropFirst(2)
                    copy.append(text(scalars[..<(header.column - 1)]) + headerText(path) + text(scalars[(written.end - 1)...]))
                } else {
                    copy.append(String(tables.lines[line - 1]))
                }
            }
        }
        while let last = copy.last, last.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { copy.removeLast() }
        return copy.joined(separator: "\n") + "\n"
    }

    /// `block` at the end of `text`, after one blank line.
    private static func appending(_ block: String, to text: String) -> String {
        let separator = text.isEmpty || text.hasSuffix("\n\n") ? "" : text.hasSuffix("\n") ? "\n" : "\n\n"
        return text + separator + block
    }

    private static func renamed(_ profile: String, to name: String, in tables: ProfileTables) throws(ConfigEdit.Failure) -> String {
        var replacements: [(range: Range<Int>, text: String)] = []
        for header in try tables.headers(of: profile) {
            guard let written = tables.writtenPath(of: header), let start = tables.sourceLines.offset(of: SourcePosition(line: header.line, column: header.column)),
                  let end = tables.sourceLines.offset(of: SourcePosition(line: header.line, column: written.end)) else {
                throw .notEditable("profile.\(profile)'s table on line \(header.line) cannot be renamed in place; edit it by hand")
            }
            replacements.append((start..<end, headerText(["profile", name] + header.path.dropFirst(2))))
        }
        var failure: ConfigEdit.Failure?
        ProfileTables.visitStrings(in: tables.document.root, path: []) { path, value in
            let namesProfile = (path == ["bridge", "profile"] || (path.count == 3 && path[0] == "controller" && path[2] == "profile")) && value.string == profile
            let replacement: String
            if namesProfile {
                replacement = quoted(name)
            } else if value.string == "profile:" + profile {
                replacement = quoted("profile:" + name)
            } else {
                return
            }
            guard value.end != .unknown, let start = tables.sourceLines.offset(of: value.position), let end = tables.sourceLines.offset(of: value.end) else {
                failure = .notEditable("\(path.joined(separator: ".")) names \(profile) in a way this edit cannot follow; edit it by hand")
                return
            }
            replacements.append((start..<end, replacement))
        }
        if let failure { throw failure }
        return replacing(replacements, in: tables)
    }

    private static func removed(_ profile: String, from tables: ProfileTables) throws(ConfigEdit.Failure) -> String {
        let headers = try tables.headers(of: profile)
        guard tables.profileNames.count > 1 else {
            throw .notEditable("\(profile) is the only profile, and a config needs one: add another first")
        }
        if tables.startProfile == profile {
            throw .notEditable("\(profile) is the profile new controllers start in ([bridge] profile): name another there first")
        }
        // Blocks that meet (a profile and its sub-table, one after the other) are cut as one.
        var cuts: [Range<Int>] = []
        for block in tables.blocks(of: headers) {
            if let last = cuts.last, last.upperBound >= block.lowerBound {
                cuts[cuts.count - 1] = last.lowerBound..<max(last.upperBound, block.upperBound)
            } else {
                cuts.append(block)
            }
        }
        var replacements: [(range: Range<Int>, text: String)] = []
        for cut in cuts {
            var start = cut.lowerBound
            // At the file's end, the blank lines before the profile go with it.
            if cut.upperBound > tables.lines.count {
                while start > 1, tables.isBlank(start - 1), !tables.headerLines.contains(start - 1) { start -= 1 }
            }
            replacements.append((tables.offset(ofLine: start)..<tables.offset(ofLine: cut.upperBound), ""))
        }
        return replacing(replacements, in: tables)
    }

    /// The text with each range (scalar offsets, none overlapping) replaced.
    private static func replacing(_ replacements: [(range: Range<Int>, text: String)], in tables: ProfileTables) -> String {
        var scalars = Array(tables.text.unicodeScalars)
        for replacement in replacements.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            scalars.replaceSubrange(replacement.range, with: Array(replacement.text.unicodeScalars))
        }
        return text(scalars[...])
    }

    /// `[a.b.c]`, each key bare when it can be.
    private static func headerText(_ path: [String]) -> String {
        "[" + path.map(ConfigEdit.bareOrQuoted).joined(separator: ".") + "]"
    }

    /// `text` as a TOML basic string.
    static func quoted(_ text: String) -> String {
        var quoted = "\""
        for character in text {
            if character == "\\" || character == "\"" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }

    private static func text(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}
