/// One of `daydream-bridge`'s commands: a type with its name, a one-line
/// abstract, a usage line and help text, and a `run` that returns the exit code.
protocol Subcommand {
    /// The word on the command line, e.g. `decode`.
    static var name: String { get }
    /// One line for the command list in `--help`.
    static var abstract: String { get }
    /// The usage line without the program name, e.g. `decode HEX...`.
    static var usage: String { get }
    /// Paragraphs after the usage line in `daydream-bridge COMMAND --help`.
    static var discussion: String { get }
    /// Runs the command with the arguments after its name. Throws `UsageError`
    /// for a bad command line; returns the exit code otherwise.
    @MainActor static func run(_ arguments: [String]) throws -> Int32
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
