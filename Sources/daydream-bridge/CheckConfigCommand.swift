import BridgeConfig
import Descriptors
#if canImport(Glibc)
import Glibc
#endif

/// `daydream-bridge check-config [FILE]`: every error of a config, or "No errors found.".
enum CheckConfigCommand: Subcommand {
    static let declaration = CommandDeclaration(
        name: "check-config", operands: "[FILE | -]",
        abstract: "Check a config file and print every error.",
        discussion: """
        Without FILE, checks the config the bridge would use: the first that
        exists of $XDG_CONFIG_HOME/daydream-bridge/config.toml (~/.config when
        XDG_CONFIG_HOME is unset) and /etc/daydream-bridge/config.toml, else the
        built-in default; it says which. '-' reads the config from standard input.

        Prints each error as FILE:LINE:COLUMN: error: MESSAGE on standard error,
        or "No errors found." on standard output. Exit status: 0 when the config
        is valid, 2 when it is not (or the file cannot be read).
        """)

    static func run(_ arguments: [String]) throws -> Int32 {
        if let option = arguments.first(where: { $0.hasPrefix("-") && $0 != "-" }) {
            throw UsageError("unknown option '\(option)'")
        }
        guard arguments.count <= 1 else { throw UsageError("check-config takes at most one file") }
        let result: Result<LoadedConfig, ConfigLoadError>
        switch arguments.first {
        case "-":
            result = Result { () throws(ConfigLoadError) in try ConfigLoader.load(readStandardInput(), from: .file("<stdin>")) }
        case let path?:
            result = Result { () throws(ConfigLoadError) in try ConfigLoader.load(.file(path)) }
        case nil:
            let environment = ConfigLookup.processEnvironment()
            let source = ConfigLookup.locate(environment: environment)
            switch source {
            case .file(let path):
                printOut("Checking \(path)")
            case .builtIn:
                let looked = ConfigLookup.candidatePaths(environment: environment).joined(separator: ", ")
                printOut("No config file (looked for \(looked)); checking the built-in default")
            }
            result = Result { () throws(ConfigLoadError) in try ConfigLoader.load(source) }
        }
        switch result {
        case .success(let loaded):
            for line in ButtonAvailabilityNotes.lines(for: loaded.configuration) { printOut(line) }
            printOut("No errors found.")
            return ExitCode.success
        case .failure(let error):
            for line in error.lines { printError(line) }
            if case .invalid(_, let errors) = error {
                let count = errors.diagnostics.count
                printError(count == 1 ? "1 error found." : "\(count) errors found.")
            }
            return ExitCode.configError
        }
    }

    private static func readStandardInput() -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while bytes.count <= ConfigFile.sizeLimit {
            let count = chunk.withUnsafeMutableBytes { bytes in retryingOnInterrupt { read(STDIN_FILENO, bytes.baseAddress, bytes.count) } }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return bytes
    }
}
