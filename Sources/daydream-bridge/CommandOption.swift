/// One option of a command, declared once: the scanner accepts it, the usage line shows it and
/// the help explains it, all from this value.
struct CommandOption: Hashable, Sendable {
    /// Every spelling, the one for the usage line first: `-v`, `--verbose`.
    let names: [String]
    /// The name of the value it takes (`FILE`), or nil for a flag.
    let valueName: String?
    /// What it does: one paragraph, wrapped to the terminal's width in the help.
    let help: String
    /// Options with the same group exclude each other: shown as `[--print | --uinput]`, refused together.
    let exclusiveGroup: String?
    /// False when the command's operands already show it (`profile [NAME | --next]`).
    let listedInUsage: Bool
    /// True when the value may be left out (`--dsu` or `--dsu=ADDR:PORT`); given, it follows `=`.
    var valueIsOptional = false

    /// An option without a value.
    static func flag(_ names: String..., help: String, exclusiveGroup: String? = nil, listedInUsage: Bool = true) -> CommandOption {
        CommandOption(names: names, valueName: nil, help: help, exclusiveGroup: exclusiveGroup, listedInUsage: listedInUsage)
    }

    /// An option with a value: `--config FILE` or `--config=FILE`.
    static func value(_ names: String..., named valueName: String, help: String, exclusiveGroup: String? = nil) -> CommandOption {
        CommandOption(names: names, valueName: valueName, help: help, exclusiveGroup: exclusiveGroup, listedInUsage: true)
    }

    /// An option whose value may be left out: `--dsu` alone, or `--dsu=ADDR:PORT` (never a
    /// separate argument, which would read as an operand).
    static func optionalValue(_ names: String..., named valueName: String, help: String) -> CommandOption {
        var option = CommandOption(names: names, valueName: valueName, help: help, exclusiveGroup: nil, listedInUsage: true)
        option.valueIsOptional = true
        return option
    }

    /// `-v`, `--config FILE` or `--dsu[=ADDR:PORT]`: how the usage line shows it.
    var usageForm: String {
        if valueIsOptional, let valueName { return "\(names[0])[=\(valueName)]" }
        return [names[0], valueName].compactMap { $0 }.joined(separator: " ")
    }

    /// `-v, --verbose`, `--config FILE` or `--dsu[=ADDR:PORT]`: the left column of the help.
    var helpForm: String {
        if valueIsOptional, let valueName { return names.joined(separator: ", ") + "[=\(valueName)]" }
        return [names.joined(separator: ", "), valueName].compactMap { $0 }.joined(separator: " ")
    }
}
