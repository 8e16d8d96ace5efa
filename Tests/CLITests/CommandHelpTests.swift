import Foundation
import TestSupport
import Testing

/// Every command has help text, reachable both ways, and usage errors follow the one shape.
@Suite("command help", .requires(BuiltBinary.exists, "the daydream-bridge binary is not built"))
struct CommandHelpTests {
    /// The command names `--help` lists.
    static func listedCommands() throws -> [String] {
        let help = try BuiltBinary.run(["--help"]).stdout
        guard let start = help.range(of: "Commands:\n"), let end = help.range(of: "\nOptions:") else { return [] }
        return help[start.upperBound..<end.lowerBound].split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    @Test func theDaemonsCommandsAreListed() throws {
        let commands = try Self.listedCommands()
        for name in ["run", "profile", "replay", "monitor", "decode", "check-config"] {
            #expect(commands.contains(name), "\(name) missing from --help")
        }
    }

    @Test(arguments: ["run", "profile", "replay", "monitor"])
    func everyCommandExplainsItself(name: String) throws {
        let help = try BuiltBinary.run([name, "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("\nUsage: daydream-bridge \(name)"))
        #expect(help.stdout.split(separator: "\n").count > 6, "\(name) --help has no discussion")
        #expect(try BuiltBinary.run(["help", name]).stdout == help.stdout)
    }

    /// The lines of the `Options:` block of `help`: `  --config FILE  Use this config...`.
    static func optionLines(in help: String) -> [String] {
        guard let start = help.range(of: "\nOptions:\n") else { return [] }
        return help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
            .prefix { !$0.isEmpty }.map(String.init)
    }

    /// Each command's options come from one declaration: every option its help explains is in its
    /// usage line, the explanations start in one column, and no line but the usage line is wider
    /// than 79 columns.
    @Test func everyCommandsOptionsAgreeBetweenUsageAndHelp() throws {
        let commands = try Self.listedCommands()
        #expect(commands.count >= 12)
        for name in commands {
            let help = try BuiltBinary.run([name, "--help"]).stdout
            let usage = try #require(help.split(separator: "\n").first { $0.hasPrefix("Usage: ") })
            let lines = Self.optionLines(in: help)
            var columns: Set<Int> = []
            for line in lines where line.hasPrefix("  -") {
                let spelling = line.dropFirst(2).prefix { $0 != " " && $0 != "," }
                #expect(usage.contains(spelling), "\(name): \(spelling) is explained but not in the usage line")
                if let gap = line.range(of: "  ", range: line.index(line.startIndex, offsetBy: 2)..<line.endIndex) {
                    columns.insert(line.distance(from: line.startIndex, to: gap.lowerBound) + (line[gap.upperBound...].prefix { $0 == " " }.count) + 2)
                }
            }
            for line in lines where line.hasPrefix("   ") {
                columns.insert(line.prefix { $0 == " " }.count)
            }
            #expect(columns.count <= 1, "\(name): the option help starts in several columns: \(columns.sorted())")
            for line in help.split(separator: "\n") where !line.hasPrefix("Usage: ") && line != help.split(separator: "\n").first {
                #expect(line.count <= 79, "\(name): a help line of \(line.count) columns: \(line)")
            }
        }
    }

    @Test(arguments: [
        (["replay"], "replay needs a recording FILE"),
        (["replay", "a", "b"], "replay takes one FILE"),
        (["replay", "a", "--print", "--uinput"], "choose one of --print and --uinput"),
        (["replay", "a", "--speed"], "unknown option '--speed'"),
        (["replay", "a", "--profile"], "--profile needs a value"),
        (["run", "extra"], "unexpected argument 'extra'"),
        (["run", "--print", "--write-events=-"], "choose one of --print and --write-events"),
        (["mapping", "--identity=xbox360", "--fast"], "unknown option '--fast'"),
        (["list", "--socket"], "--socket needs a value"),
        (["run", "--pair", "--replay", "x"], "--pair and --replay cannot be used together"),
        (["profile", "a", "--next"], "give a profile NAME or --next, not both"),
        (["monitor", "a", "b"], "monitor takes at most one ADDRESS"),
    ])
    func usageErrorsExit64(arguments: [String], message: String) throws {
        let result = try BuiltBinary.run(arguments)
        #expect(result.status == 64)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "Error: \(message)")
        #expect(lines.dropFirst().first?.hasPrefix("Usage: daydream-bridge \(arguments[0]) ") == true)
        #expect(lines.last == "See 'daydream-bridge --help'.")
    }
}
