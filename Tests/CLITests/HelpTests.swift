import Foundation
import TestSupport
import Testing

/// Help, version and usage errors of the built binary.
@Suite("help and usage", .requires(BuiltBinary.exists, "the daydream-bridge binary is not built"))
struct HelpTests {
    @Test func helpListsEveryCommand() throws {
        let result = try BuiltBinary.run(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Usage: daydream-bridge [COMMAND] [OPTIONS]"))
        #expect(result.stdout.contains("  decode "))
    }

    @Test func commandHelpShowsItsUsage() throws {
        let result = try BuiltBinary.run(["decode", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Usage: daydream-bridge decode HEX..."))
        let viaHelp = try BuiltBinary.run(["help", "decode"])
        #expect(viaHelp.stdout == result.stdout)
    }

    @Test func unknownCommandExits64() throws {
        let result = try BuiltBinary.run(["frobnicate"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: unknown command 'frobnicate'\nUsage: "))
        #expect(result.stderr.hasSuffix("See 'daydream-bridge --help'.\n"))
    }

    @Test func versionPrintsOneLine() throws {
        let result = try BuiltBinary.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("daydream-bridge "))
        #expect(result.stdoutLines.count == 1)
    }
}
