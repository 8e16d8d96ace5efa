#if canImport(Glibc)
import Glibc
#endif
import Descriptors

/// The bridge's log: one message, one `write(2)` to standard error, in the `LogStyle` chosen at start.
///
/// `configure(verbose:)` once in `main`; then `Logger.info("...")` anywhere on the main thread.
/// Messages say whose fault a problem is (kernel, BlueZ, config, ours) and what to do.
@MainActor
public enum Logger {
    /// The least important priority written: `.info` normally, `.debug` with `-v`.
    public static var threshold: LogPriority = .info
    /// The line format; detected from the environment by `configure`.
    public static var style: LogStyle = .terminal
    /// Where formatted text goes: standard error unless a test replaces it.
    public static var sink: (String) -> Void = { writeToStandardError($0) }

    /// Picks the style from `JOURNAL_STREAM` and whether standard error is a terminal; `verbose` shows debug lines.
    public static func configure(verbose: Bool) {
        threshold = verbose ? .debug : .info
        let journalStream = getenv("JOURNAL_STREAM").map { String(cString: $0) }
        style = LogStyle.detect(journalStream: journalStream, standardErrorIsTerminal: isatty(STDERR_FILENO) == 1)
    }

    /// True when a message at `priority` would be written (to skip building costly messages).
    public static func isEnabled(_ priority: LogPriority) -> Bool { priority <= threshold }

    /// Writes `message` at `priority` when the threshold lets it through.
    public static func log(_ priority: LogPriority, _ message: @autoclosure () -> String) {
        guard isEnabled(priority) else { return }
        sink(style.format(priority, message()))
    }

    /// `<3>`: something failed.
    public static func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    /// `<4>`: something is wrong; the bridge carries on.
    public static func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    /// `<5>`: a significant normal event.
    public static func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
    /// `<6>`: progress.
    public static func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    /// `<7>`: details, shown with `-v`.
    public static func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }

    /// Writes `text` to standard error in one `write(2)` (retrying on `EINTR` and short writes).
    public nonisolated static func writeToStandardError(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { buffer in retryingOnInterrupt { write(STDERR_FILENO, buffer.baseAddress, buffer.count) } }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
