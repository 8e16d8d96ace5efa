@testable import Bridge
import Testing

/// The log line formats: journald priority prefixes, plain text on a terminal.
@Suite("log style")
struct LogStyleTests {
    @Test func journalLinesCarryTheSyslogPriority() {
        #expect(LogStyle.journal.format(.error, "no adapter") == "<3>no adapter\n")
        #expect(LogStyle.journal.format(.warning, "kept the old config") == "<4>kept the old config\n")
        #expect(LogStyle.journal.format(.notice, "connected") == "<5>connected\n")
        #expect(LogStyle.journal.format(.info, "ready") == "<6>ready\n")
        #expect(LogStyle.journal.format(.debug, "packet") == "<7>packet\n")
    }

    @Test func everyLineOfAMultiLineMessageIsPrefixed() {
        #expect(LogStyle.journal.format(.warning, "config.toml:3:1: bad\nconfig.toml:9:5: worse")
            == "<4>config.toml:3:1: bad\n<4>config.toml:9:5: worse\n")
        #expect(LogStyle.terminal.format(.error, "a\nb") == "daydream-bridge: error: a\ndaydream-bridge: error: b\n")
    }

    @Test func terminalLinesAreLabelledOnlyWhenNotProgress() {
        #expect(LogStyle.terminal.format(.info, "ready") == "daydream-bridge: ready\n")
        #expect(LogStyle.terminal.format(.notice, "connected") == "daydream-bridge: connected\n")
        #expect(LogStyle.terminal.format(.warning, "w") == "daydream-bridge: warning: w\n")
        #expect(LogStyle.terminal.format(.debug, "d") == "daydream-bridge: debug: d\n")
    }

    @Test func styleFollowsJournalStreamThenTheTerminal() {
        #expect(LogStyle.detect(journalStream: "8:1234", standardErrorIsTerminal: true) == .journal)
        #expect(LogStyle.detect(journalStream: nil, standardErrorIsTerminal: false) == .journal)
        #expect(LogStyle.detect(journalStream: nil, standardErrorIsTerminal: true) == .terminal)
        #expect(LogStyle.detect(journalStream: "", standardErrorIsTerminal: true) == .terminal)
    }

    @MainActor @Test func thresholdHidesDebugUnlessVerbose() {
        var written: [String] = []
        let saved = (Logger.sink, Logger.threshold, Logger.style)
        defer { (Logger.sink, Logger.threshold, Logger.style) = saved }
        Logger.sink = { written.append($0) }
        Logger.style = .journal
        Logger.threshold = .info
        Logger.debug("hidden")
        Logger.info("shown")
        Logger.threshold = .debug
        Logger.debug("now shown")
        #expect(written == ["<6>shown\n", "<7>now shown\n"])
    }
}
