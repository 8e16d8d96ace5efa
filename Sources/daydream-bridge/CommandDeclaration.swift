/// What a command is called, takes and says about itself, declared once: the command list,
/// the usage line, `COMMAND --help` and the option scanner all read it.
struct CommandDeclaration: Sendable {
    /// The word on the command line, e.g. `decode`.
    var name: String
    /// The operands as the usage line shows them, e.g. `FILE [ADDRESS]`; empty for none.
    var operands = ""
    /// One line for the command list in `--help`.
    var abstract: String
    /// Every option the command takes, in the order the usage line and the help show them.
    var options: [CommandOption] = []
    /// Paragraphs after the usage line in `daydream-bridge COMMAND --help`, before the options.
    var discussion: String
    /// Paragraphs after the options (signals, keys, exit status); empty for none.
    var notes = ""
}
