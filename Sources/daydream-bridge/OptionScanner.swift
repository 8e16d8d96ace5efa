/// Reads a command's arguments against its declared options: flags (`--fast`), options with a
/// value (`--config FILE` or `--config=FILE`; `--dsu` or `--dsu=ADDR:PORT` for an optional
/// one, whose value is then empty when left out) and positional arguments, in any order; `--` ends
/// the options. Anything unknown, a missing value, or two options of one exclusive group is a
/// `UsageError`.
struct OptionScanner {
    /// The positional arguments, in order.
    private(set) var positionals: [String] = []
    /// The options given, by their first spelling; a flag's value is empty.
    private var given: [String: String] = [:]

    /// Scans `arguments` for `options`, under any of their spellings.
    init(_ arguments: [String], options: [CommandOption]) throws {
        var bySpelling: [String: CommandOption] = [:]
        for option in options {
            for name in option.names { bySpelling[name] = option }
        }
        var index = 0
        var optionsEnded = false
        var order: [CommandOption] = []
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
                guard let option = bySpelling[name], option.valueName != nil else { throw UsageError("unknown option '\(name)'") }
                given[option.names[0]] = String(argument[argument.index(after: equals)...])
                order.append(option)
            } else if let option = bySpelling[argument] {
                if option.valueName == nil || option.valueIsOptional {
                    given[option.names[0]] = ""
                } else {
                    guard index < arguments.count else { throw UsageError("\(argument) needs a value") }
                    given[option.names[0]] = arguments[index]
                    index += 1
                }
                order.append(option)
            } else {
                throw UsageError("unknown option '\(argument)'")
            }
        }
        try Self.checkExclusiveGroups(of: options, given: Set(order.map { $0.names[0] }))
    }

    /// True when the flag was given, under any of its spellings.
    func flag(_ option: CommandOption) -> Bool {
        given[option.names[0]] != nil
    }

    /// The option's value, or nil when it was not given.
    func value(_ option: CommandOption) -> String? {
        given[option.names[0]]
    }

    private static func checkExclusiveGroups(of options: [CommandOption], given: Set<String>) throws {
        var groups: [String] = []
        for option in options { if let group = option.exclusiveGroup, !groups.contains(group) { groups.append(group) } }
        for group in groups {
            let members = options.filter { $0.exclusiveGroup == group }
            guard members.filter({ given.contains($0.names[0]) }).count > 1 else { continue }
            let names = members.map { $0.names[0] }
            throw UsageError("choose one of " + names.dropLast().joined(separator: ", ") + " and " + (names.last ?? ""))
        }
    }
}
