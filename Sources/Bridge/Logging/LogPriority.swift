/// How important a log line is, with syslog's numbers (as `sd-daemon.h` prefixes them).
public enum LogPriority: Int, Comparable, Sendable, CaseIterable {
    /// `<3>`: something failed; the bridge may not work.
    case error = 3
    /// `<4>`: something is wrong but the bridge carries on (a broken config kept the old one).
    case warning = 4
    /// `<5>`: a normal but significant event (a controller connected, a profile switched).
    case notice = 5
    /// `<6>`: progress worth a line (devices created, config loaded).
    case info = 6
    /// `<7>`: details for `-v`.
    case debug = 7

    /// More important sorts first: `.error < .debug`.
    public static func < (lhs: LogPriority, rhs: LogPriority) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The word a terminal line starts with, or nil for plain progress lines.
    var terminalLabel: String? {
        switch self {
        case .error: "error"
        case .warning: "warning"
        case .notice, .info: nil
        case .debug: "debug"
        }
    }
}

/// How log lines are written to standard error.
public enum LogStyle: Sendable, Equatable {
    /// `<N>message`: journald (and syslog-style collectors) file each line at its priority.
    case journal
    /// `daydream-bridge: warning: message` for a person at a terminal.
    case terminal

    /// The style for this process: `.journal` when `JOURNAL_STREAM` is set (systemd connected standard
    /// error to the journal) or standard error is not a terminal, `.terminal` otherwise.
    public static func detect(journalStream: String?, standardErrorIsTerminal: Bool) -> LogStyle {
        if let journalStream, !journalStream.isEmpty { return .journal }
        return standardErrorIsTerminal ? .terminal : .journal
    }

    /// The lines to write for one message, each ending in a newline. Every line of a multi-line
    /// message carries the prefix, because journald files each line as its own entry.
    public func format(_ priority: LogPriority, _ message: String, program: String = "daydream-bridge") -> String {
        var text = ""
        for line in message.split(separator: "\n", omittingEmptySubsequences: false) {
            switch self {
            case .journal:
                text += "<\(priority.rawValue)>\(line)\n"
            case .terminal:
                if let label = priority.terminalLabel {
                    text += "\(program): \(label): \(line)\n"
                } else {
                    text += "\(program): \(line)\n"
                }
            }
        }
        return text
    }
}
