/// The usage line and the help text of a command, made from its declared operands and options.
enum CommandHelp {
    /// The widest left column before an option's help moves to the next line.
    static let widestColumn = 18
    /// The width the help is wrapped to.
    static let width = 79

    /// The usage line without the program name: `replay FILE [--print | --uinput] [--fast] [-v]`.
    static func usage(for command: any Subcommand.Type) -> String {
        var words = [command.name]
        if !command.operands.isEmpty { words.append(command.operands) }
        var shownGroups: Set<String> = []
        for option in command.options where option.listedInUsage {
            guard let group = option.exclusiveGroup else {
                words.append("[\(option.usageForm)]")
                continue
            }
            guard shownGroups.insert(group).inserted else { continue }
            let members = command.options.filter { $0.exclusiveGroup == group }
            words.append("[" + members.map(\.usageForm).joined(separator: " | ") + "]")
        }
        return words.joined(separator: " ")
    }

    /// The `Options:` block: each option's spellings, and its help wrapped beside them.
    static func optionsBlock(_ options: [CommandOption]) -> String {
        guard !options.isEmpty else { return "" }
        let column = 2 + (options.map(\.helpForm.count).filter { $0 <= widestColumn }.max() ?? widestColumn) + 2
        var lines = ["Options:"]
        for option in options {
            let helpLines = wrap(option.help, width: width - column)
            let left = "  " + option.helpForm
            if left.count + 2 > column {
                lines.append(left)
                lines += helpLines.map { String(repeating: " ", count: column) + $0 }
            } else {
                lines.append(left.paddedOrCut(to: column) + (helpLines.first ?? ""))
                lines += helpLines.dropFirst().map { String(repeating: " ", count: column) + $0 }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `command --help`: the abstract, the usage line, the discussion, the options, the notes.
    static func text(for command: any Subcommand.Type, programName: String) -> String {
        let sections = [command.discussion, optionsBlock(command.options), command.notes].filter { !$0.isEmpty }
        var text = "\(command.abstract)\n\nUsage: \(programName) \(usage(for: command))\n"
        for section in sections { text += "\n\(section)\n" }
        return text
    }

    /// `text`'s words in lines of at most `width` characters (a longer word gets a line of its own).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
