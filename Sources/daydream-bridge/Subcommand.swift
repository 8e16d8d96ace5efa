/// One of `daydream-bridge`'s commands: its declaration (name, abstract, operands, options and
/// help prose, which make the usage line, the help and what the scanner accepts) and a `run`
/// that returns the exit code.
protocol Subcommand {
    /// What the command is called, takes and says about itself.
    static var declaration: CommandDeclaration { get }
    /// Runs the command with the arguments after its name and returns the exit code. Throws
    /// `UsageError` for a bad command line (printed with the usage, exit 64); any other error is
    /// printed as `Error: ...` with exit status 1, so a command need not catch it to say so.
    @MainActor static func run(_ arguments: [String]) throws -> Int32
}

extension Subcommand {
    static var name: String { declaration.name }
    static var abstract: String { declaration.abstract }
    static var operands: String { declaration.operands }
    static var options: [CommandOption] { declaration.options }
    static var discussion: String { declaration.discussion }
    static var notes: String { declaration.notes }

    /// The usage line without the program name, e.g. `decode HEX...`.
    static var usage: String { CommandHelp.usage(for: self) }

    /// Scans `arguments` for this command's options.
    static func scan(_ arguments: [String]) throws -> OptionScanner {
        try OptionScanner(arguments, options: options)
    }
}

/// A command line that cannot be run: printed as `Error: ...`, `Usage: ...`,
/// `See 'daydream-bridge --help'.`, exit 64.
struct UsageError: Error {
    var message: String
    var usage: String?

    init(_ message: String, usage: String? = nil) {
        self.message = message
        self.usage = usage
    }
}

/// Exit codes, as sysexits.h names them where it has a name.
enum ExitCode {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let configError: Int32 = 2
    static let usage: Int32 = 64
}
