import Foundation
import TestSupport
import Testing

/// doc/daydream-bridge.1 against the built binary's help: every command the tool lists has an
/// entry in the man page's COMMANDS whose synopsis is the command's usage line, and every option
/// of a usage line is explained in the command's `--help` and in its man page entry.
@Suite("man page and help agree", .requires(BuiltBinary.exists, "the daydream-bridge binary is not built"))
struct ManPageTests {
    static let manPage = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("doc/daydream-bridge.1")

    /// The man page's COMMANDS section as (synopsis, text) per top-level `.TP` entry, with the
    /// roff escapes for fonts and minus signs taken out.
    static func commandEntries() throws -> [(synopsis: String, text: String)] {
        let source = try String(contentsOf: manPage, encoding: .utf8)
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: ".SH COMMANDS") else { return [] }
        var entries: [(synopsis: String, text: String)] = []
        var depth = 0
        var index = start + 1
        while index < lines.count, !lines[index].hasPrefix(".SH ") {
            let line = lines[index]
            if line == ".RS" { depth += 1 } else if line == ".RE" { depth -= 1 }
            if line == ".TP", depth == 0, index + 1 < lines.count {
                entries.append((plain(lines[index + 1]), ""))
                index += 2
                continue
            }
            if !entries.isEmpty { entries[entries.count - 1].text += plain(line) + "\n" }
            index += 1
        }
        return entries
    }

    /// One roff line as it reads: `.B`/`.BR`/`.BI`/`.IR` arguments joined as the macros join
    /// them, font escapes dropped, `\-` as `-`.
    static func plain(_ line: String) -> String {
        var text = line
        if text.hasPrefix("."), let space = text.firstIndex(of: " ") {
            let macro = text[..<space]
            let arguments = arguments(of: String(text[text.index(after: space)...]))
            text = ["B", "I"].contains(macro.dropFirst()) ? arguments.joined(separator: " ") : arguments.joined()
        } else if text.hasPrefix(".") {
            return ""
        }
        for escape in ["\\fB", "\\fI", "\\fR", "\\fP"] { text = text.replacingOccurrences(of: escape, with: "") }
        return text.replacingOccurrences(of: "\\-", with: "-")
    }

    /// A macro's arguments: words, or double-quoted strings.
    static func arguments(of text: String) -> [String] {
        var result: [String] = []
        var current = ""
        var quoted = false
        for character in text {
            if character == "\"" {
                quoted.toggle()
            } else if character == " ", !quoted {
                if !current.isEmpty { result.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    /// The options a usage line names: `--config`, `-v`.
    static func options(inUsage usage: String) -> [String] {
        usage.split(whereSeparator: { " []|".contains($0) }).map(String.init).filter { $0.hasPrefix("-") && $0 != "-" }
    }

    @Test func theRoffReaderReadsWhatTheMacrosMean() {
        #expect(Self.plain(#".BR check-config " [\fIFILE\fR | \fB\-\fR]""#) == "check-config [FILE | -]")
        #expect(Self.plain(#".BI forget " ADDRESS""#) == "forget ADDRESS")
        #expect(Self.plain(#"\fBscan\fR [\fB\-\-timeout\fR \fISECONDS\fR]"#) == "scan [--timeout SECONDS]")
        #expect(Self.options(inUsage: "run [--pair] [--print | --write-events FILE] [-v]") == ["--pair", "--print", "--write-events", "-v"])
    }

    @Test func everyCommandHasAnEntryWithItsUsageAsSynopsis() throws {
        let entries = try Self.commandEntries()
        let commands = try CommandHelpTests.listedCommands()
        #expect(commands.count > 5)
        for name in commands {
            let help = try BuiltBinary.run([name, "--help"]).stdout
            let usage = try #require(help.split(separator: "\n").first { $0.hasPrefix("Usage: daydream-bridge ") })
                .dropFirst("Usage: daydream-bridge ".count)
            let entry = entries.first { $0.synopsis.split(separator: " ").first.map(String.init) == name }
            #expect(entry?.synopsis == String(usage), "man page synopsis of \(name)")
        }
        #expect(entries.count == commands.count, "man page entries: \(entries.map(\.synopsis))")
    }

    @Test func everyOptionIsExplainedInHelpAndManPage() throws {
        let entries = try Self.commandEntries()
        for name in try CommandHelpTests.listedCommands() {
            let help = try BuiltBinary.run([name, "--help"]).stdout
            let lines = help.split(separator: "\n").map(String.init)
            let usage = try #require(lines.first { $0.hasPrefix("Usage: ") })
            let discussion = lines.filter { !$0.hasPrefix("Usage: ") }.joined(separator: "\n")
            let entry = entries.first { $0.synopsis.split(separator: " ").first.map(String.init) == name }
            for option in Self.options(inUsage: usage) {
                #expect(discussion.contains(option), "\(name) --help does not explain \(option)")
                #expect(entry?.text.contains(option) == true, "the man page's \(name) does not explain \(option)")
            }
        }
    }
}
