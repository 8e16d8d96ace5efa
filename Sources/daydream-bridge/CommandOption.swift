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

    /// An option without a value.
    static func flag(_ names: String..., help: String, exclusiveGroup: String? = nil, listedInUsage: Bool = true) -> CommandOption {
        CommandOption(names: names, valueName: nil, help: help, exclusiveGroup: exclusiveGroup, listedInUsage: listedInUsage)
    }

    /// An option with a value: `--config FILE` or `--config=FILE`.
    static func value(_ names: String..., named valueName: String, help: String, exclusiveGroup: String? = nil) -> CommandOption {
        CommandOption(names: names, valueName: valueName, help: help, exclusiveGroup: exclusiveGroup, listedInUsage: true)
    }

    /// `-v` or `--config FILE`: how the usage line shows it.
    var usageForm: String {
        [names[0], valueName].compactMap { $0 }.joined(separator: " ")
    }

    /// `-v, --verbose` or `--config FILE`: the left column of the help.
    var helpForm: String {
        [names.joined(separator: ", "), valueName].compactMap { $0 }.joined(separator: " ")
    }
}
