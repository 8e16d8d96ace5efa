/// One of `daydream-bridge`'s commands: a type with its name, a one-line abstract, its operands
/// and options (which make the usage line, the `Options:` help and what the scanner accepts),
/// the help's prose, and a `run` that returns the exit code.
protocol Subcommand {
    /// The word on the command line, e.g. `decode`.
    static var name: String { get }
    /// One line for the command list in `--help`.
    static var abstract: String { get }
    /// The operands as the usage line shows them, e.g. `FILE [ADDRESS]`; empty for none.
    static var operands: String { get }
    /// Every option the command takes, in the order the usage line and the help show them.
    static var options: [CommandOption] { get }
    /// Paragraphs after the usage line in `daydream-bridge COMMAND --help`, before the options.
    static var discussion: String { get }
    /// Paragraphs after the options (signals, keys, exit status); empty for none.
    static var notes: String { get }
    /// Runs the command with the arguments after its name and returns the exit code. Throws
    /// `UsageError` for a bad command line (printed with the usage, exit 64); any other error is
    /// printed as `Error: ...` with exit status 1, so a command need not catch it to say so.
    @MainActor static func run(_ arguments: [String]) throws -> Int32
}

extension Subcommand {
    static var operands: String { "" }
    static var options: [CommandOption] { [] }
    static var notes: String { "" }

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
