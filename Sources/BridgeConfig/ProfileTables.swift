/// Where a config's profiles are written, as whole tables: what `ConfigProfileEdit` cuts, copies
/// and renames. A profile is its `[profile.NAME]` header and the headers of its sub-tables
/// (`[profile.NAME.chords]`), each with the lines up to the next header; the comment lines right
/// above a header (not the file's opening comment) belong to it.
struct ProfileTables {
    /// A table header of the profile: its line, where its `[` is, and the keys it names.
    struct Header {
        var line: Int
        var column: Int
        var path: [String]
    }

    let text: String
    let document: TOMLDocument
    let sourceLines: SourceLines
    /// The text's lines, without their line breaks.
    let lines: [Substring]
    /// The line of every table header in the file, in order.
    let headerLines: [Int]

    /// The tables of `text`; a failure when it does not parse.
    init(_ text: String) throws(ConfigEdit.Failure) {
        self.text = text
        do {
            document = try TOMLDocument(parsing: Array(text.utf8))
        } catch {
            throw .unparsable(ConfigDiagnostic(at: error.position, error.message))
        }
        sourceLines = SourceLines(text)
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var found: [Header] = []
        Self.collectHeaders(in: document.root, path: [], lines: sourceLines, into: &found)
        headerLines = Set(found.map(\.line)).sorted()
    }

    /// The profiles' names, in file order.
    var profileNames: [String] {
        document.root["profile"]?.value.table?.keys ?? []
    }

    /// `[bridge] profile`, when the file gives one.
    var startProfile: String? {
        document.root["bridge"]?.value.table?["profile"]?.value.string
    }

    /// The headers of `profile` and its sub-tables, checked to be written as headers that name
    /// them, with every key of the profile inside their blocks.
    func headers(of profile: String) throws(ConfigEdit.Failure) -> [Header] {
        guard let entry = document.root["profile"]?.value.table?[profile] else {
            throw .notEditable("there is no profile \(profile)")
        }
        guard let table = entry.value.table, sourceLines.scalar(at: entry.value.position) == "[" else {
            throw .notEditable("profile.\(profile) is not written as a [profile.\(profile)] table; edit it by hand")
        }
        var headers = [Header(line: entry.value.position.line, column: entry.value.position.column, path: ["profile", profile])]
        Self.collectHeaders(in: table, path: ["profile", profile], lines: sourceLines, into: &headers)
        for header in headers where writtenPath(of: header)?.keys != header.path {
            throw .notEditable("profile.\(profile)'s table on line \(header.line) is written in a way this edit cannot follow; edit it by hand")
        }
        let blocks = self.blocks(of: headers)
        var outside: SourcePosition?
        Self.visitKeys(of: table) { position in
            if outside == nil, !blocks.contains(where: { $0.contains(position.line) }) { outside = position }
        }
        if let outside {
            throw .notEditable("profile.\(profile) has a key outside its tables (line \(outside.line)); edit it by hand")
        }
        return headers
    }

    /// The lines (1-based, half-open ranges) each header's block spans, in file order: from the
    /// comments right above it to the comments right above the next header, or the end.
    func blocks(of headers: [Header]) -> [Range<Int>] {
        headers.map(\.line).sorted().map { line in
            let next = headerLines.first { $0 > line }
            return leadStart(of: line)..<(next.map(leadStart(of:)) ?? lines.count + 1)
        }
    }

    /// The first of the comment lines right above the header on `line`; `line` itself when none,
    /// or when they run up to the file's first line (the file's own comment).
    func leadStart(of line: Int) -> Int {
        var start = line
        while start > 1, isComment(start - 1), !headerLines.contains(start - 1) { start -= 1 }
        return start == 1 ? line : start
    }

    func isComment(_ line: Int) -> Bool {
        lines[line - 1].drop { $0 == " " || $0 == "\t" }.hasPrefix("#")
    }

    func isBlank(_ line: Int) -> Bool {
        lines[line - 1].allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" }
    }

    /// The scalar offset where `line` (1-based) starts; the text's end past its last line.
    func offset(ofLine line: Int) -> Int {
        sourceLines.offset(of: SourcePosition(line: line, column: 1)) ?? text.unicodeScalars.count
    }

    /// The keys a header on its line names and the column after its `]`; nil when it cannot be
    /// read (or is an array of tables' `[[`).
    func writtenPath(of header: Header) -> (keys: [String], end: Int)? {
        let scalars = Array(lines[header.line - 1].unicodeScalars)
        var index = header.column - 1
        guard index < scalars.count, scalars[index] == "[", index + 1 < scalars.count, scalars[index + 1] != "[" else { return nil }
        index += 1
        var keys: [String] = []
        func skipSpaces() { while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 } }
        while true {
            skipSpaces()
            guard index < scalars.count else { return nil }
            var key = String.UnicodeScalarView()
            if scalars[index] == "\"" || scalars[index] == "'" {
                let quote = scalars[index]
                index += 1
                while index < scalars.count, scalars[index] != quote {
                    if quote == "\"", scalars[index] == "\\" {
                        // Escapes other than \" and \\ are rare in a profile's name: leave those to a hand edit.
                        guard index + 1 < scalars.count, scalars[index + 1] == "\"" || scalars[index + 1] == "\\" else { return nil }
                        index += 1
                    }
                    key.append(scalars[index])
                    index += 1
                }
                guard index < scalars.count else { return nil }
                index += 1
            } else {
                while index < scalars.count, Self.isBareKeyScalar(scalars[index]) {
                    key.append(scalars[index])
                    index += 1
                }
                guard !key.isEmpty else { return nil }
            }
            keys.append(String(key))
            skipSpaces()
            guard index < scalars.count else { return nil }
            if scalars[index] == "]" { return (keys, index + 2) }
            guard scalars[index] == "." else { return nil }
            index += 1
        }
    }

    static func isBareKeyScalar(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_"
    }

    /// The headers of the tables under `table` (not `table`'s own), with their key paths.
    static func collectHeaders(in table: TOMLTable, path: [String], lines: SourceLines, into headers: inout [Header]) {
        for entry in table.entries {
            let subpath = path + [entry.key]
            if let subtable = entry.value.table {
                if lines.scalar(at: entry.value.position) == "[" {
                    headers.append(Header(line: entry.value.position.line, column: entry.value.position.column, path: subpath))
                }
                collectHeaders(in: subtable, path: subpath, lines: lines, into: &headers)
            } else if let elements = entry.value.array {
                for element in elements {
                    guard let subtable = element.table else { continue }
                    if lines.scalar(at: element.position) == "[" {
                        headers.append(Header(line: element.position.line, column: element.position.column, path: subpath))
                    }
                    collectHeaders(in: subtable, path: subpath, lines: lines, into: &headers)
                }
            }
        }
    }

    /// Calls `visit` with where each key under `table` is written (sub-tables' keys too).
    static func visitKeys(of table: TOMLTable, _ visit: (SourcePosition) -> Void) {
        for entry in table.entries {
            visit(entry.keyPosition)
            if let subtable = entry.value.table { visitKeys(of: subtable, visit) }
        }
    }

    /// Calls `visit` with every string value in `table` and the key path that leads to it.
    static func visitStrings(in table: TOMLTable, path: [String], _ visit: ([String], TOMLValue) -> Void) {
        for entry in table.entries {
            visitStrings(in: entry.value, path: path + [entry.key], visit)
        }
    }

    private static func visitStrings(in value: TOMLValue, path: [String], _ visit: ([String], TOMLValue) -> Void) {
        switch value.content {
        case .string: visit(path, value)
        case .table(let table): visitStrings(in: table, path: path, visit)
        case .array(let elements): elements.forEach { visitStrings(in: $0, path: path, visit) }
        default: break
        }
    }
}
