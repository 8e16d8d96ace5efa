import Foundation
import TestSupport
import Testing

/// Every command has help text, reachable both ways, and usage errors follow the one shape.
@Suite("command help", .enabled(if: BuiltBinary.exists, "the daydream-bridge binary is not built"))
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

    @Test(arguments: [
        (["replay"], "replay needs a recording FILE"),
        (["replay", "a", "b"], "replay takes one FILE"),
        (["replay", "a", "--print", "--uinput"], "choose one of --print and --uinput"),
        (["replay", "a", "--speed"], "unknown option '--speed'"),
        (["replay", "a", "--profile"], "--profile needs a value"),
        (["run", "extra"], "unexpected argument 'extra'"),
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
