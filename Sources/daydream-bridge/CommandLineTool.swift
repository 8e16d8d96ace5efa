import Bridge
import Descriptors
import EventLoop
#if canImport(Glibc)
import Glibc
#endif

/// Parses the first word of the command line and runs the matching command.
@MainActor
enum CommandLineTool {
    static let programName = "daydream-bridge"
    static let version = "0.1.0"

    /// Every command, in the order `--help` lists them. `run` is the default.
    static let commands: [any Subcommand.Type] = [
        RunCommand.self,
        ProfileCommand.self,
        CalibrateCommand.self,
        LendCommand.self,
        ReclaimCommand.self,
        FollowFocusCommand.self,
        UICommand.self,
        DecodeCommand.self,
        CheckConfigCommand.self,
        ReplayCommand.self,
        MonitorCommand.self,
        RecordCommand.self,
        ScanCommand.self,
        PairCommand.self,
        ForgetCommand.self,
        ListCommand.self,
        MappingCommand.self,
    ]

    static func main(_ arguments: [String]) -> Int32 {
        // The library names no program: its lines get this one's name here (`run`, `record` and
        // `monitor` send them through their own log instead).
        Log.sink = Logger.plainSink
        var arguments = arguments
        let first = arguments.first
        switch first {
        case "--help", "-h", "help":
            arguments.removeFirst()
            if let name = arguments.first {
                guard let command = command(named: name) else {
                    return report(UsageError("unknown command '\(name)'"))
                }
                printOut(helpText(for: command))
            } else {
                printOut(generalHelp())
            }
            return ExitCode.success
        case "--version", "-V":
            printOut("\(programName) \(version)")
            return ExitCode.success
        default:
            break
        }
        let selected: any Subcommand.Type
        if let first, !first.hasPrefix("-") {
            guard let command = command(named: first) else {
                return report(UsageError("unknown command '\(first)'"))
            }
            selected = command
            arguments.removeFirst()
        } else if let run = command(named: "run") {
            selected = run
        } else {
            return report(UsageError("no command given"))
        }
        if arguments.contains("--help") || arguments.contains("-h") {
            printOut(helpText(for: selected))
            return ExitCode.success
        }
        do {
            return try selected.run(arguments)
        } catch let error as UsageError {
            return report(error, usage: error.usage ?? "\(programName) \(selected.usage)")
        } catch {
            printError("Error: \(error)")
            return ExitCode.failure
        }
    }

    static func command(named name: String) -> (any Subcommand.Type)? {
        commands.first { $0.name == name }
    }

    static func report(_ error: UsageError, usage: String? = nil) -> Int32 {
        printError("Error: \(error.message)")
        printError("Usage: \(usage ?? "\(programName) [COMMAND] [OPTIONS]")")
        printError("See '\(programName) --help'.")
        return ExitCode.usage
    }

    static func helpText(for command: any Subcommand.Type) -> String {
        CommandHelp.text(for: command, programName: programName)
    }

    static func generalHelp() -> String {
        let width = commands.map { $0.name.count }.max() ?? 0
        var text = """
        \(programName): Google's Daydream View controller as a Linux gamepad, mouse and keyboard.

        Usage: \(programName) [COMMAND] [OPTIONS]

        With no command, runs the bridge (same as '\(programName) run').

        Commands:

        """
        for command in commands {
            let padding = String(repeating: " ", count: width - command.name.count)
            text += "  \(command.name)\(padding)  \(command.abstract)\n"
        }
        text += """

        Options:
          -h, --help     Show help; '\(programName) COMMAND --help' for a command.
          -V, --version  Show the version.

        """
        return text
    }
}

/// Writes `text` and a newline to standard output, unbuffered (one `write(2)`).
func printOut(_ text: String) {
    writeLine(text, to: STDOUT_FILENO)
}

/// Writes `text` and a newline to standard error, unbuffered (one `write(2)`).
func printError(_ text: String) {
    writeLine(text, to: STDERR_FILENO)
}

private func writeLine(_ text: String, to fd: Int32) {
    var line = text
    if !line.hasSuffix("\n") { line += "\n" }
    var utf8 = Array(line.utf8)[...]
    while !utf8.isEmpty {
        let written = utf8.withUnsafeBytes { bytes in retryingOnInterrupt { write(fd, bytes.baseAddress, bytes.count) } }
        guard written > 0 else { return }
        utf8 = utf8.dropFirst(written)
    }
}
