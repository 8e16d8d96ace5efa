/// Reads a command's arguments: flags (`--fast`), options with a value (`--config FILE` or
/// `--config=FILE`) and positional arguments, in any order; `--` ends the options.
/// Anything unknown is a `UsageError`.
struct OptionScanner {
    /// The positional arguments, in order.
    private(set) var positionals: [String] = []
    private var flags: Set<String> = []
    private var values: [String: String] = [:]

    /// Scans `arguments`. `flags` and `options` list every accepted spelling (`-v`, `--verbose`).
    init(_ arguments: [String], flags knownFlags: Set<String>, options knownOptions: Set<String>) throws {
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                let name = String(argument[..<equals])
                guard knownOptions.contains(name) else { throw UsageError("unknown option '\(name)'") }
                values[name] = String(argument[argument.index(after: equals)...])
            } else if knownFlags.contains(argument) {
                flags.insert(argument)
            } else if knownOptions.contains(argument) {
                guard index < arguments.count else { throw UsageError("\(argument) needs a value") }
                values[argument] = arguments[index]
                index += 1
            } else {
                throw UsageError("unknown option '\(argument)'")
            }
        }
    }

    /// True when any of the spellings was given.
    func flag(_ names: String...) -> Bool {
        names.contains { flags.contains($0) }
    }

    /// The value of the option under any of its spellings, or nil.
    func value(_ names: String...) -> String? {
        for name in names { if let value = values[name] { return value } }
        return nil
    }
}
