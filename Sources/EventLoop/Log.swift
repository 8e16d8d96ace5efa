#if canImport(Glibc)
import Glibc
#endif

/// One-line diagnostics on standard error, `daydream-bridge: message`.
/// Tests and the daemon can redirect them with `Log.sink`.
public enum Log {
    /// How much is written.
    public enum Level: Int, Comparable, Sendable {
        case error, warning, info, debug
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The most detailed level written; `DAYDREAM_DEBUG=1` in the environment turns on debug.
    @MainActor public static var level: Level = getenv("DAYDREAM_DEBUG") != nil ? .debug : .info
    /// Where lines go; standard error by default.
    @MainActor public static var sink: (Level, String) -> Void = { _, line in writeToStandardError(line) }

    @MainActor public static func error(_ message: @autoclosure () -> String) { emit(.error, message) }
    @MainActor public static func warning(_ message: @autoclosure () -> String) { emit(.warning, message) }
    @MainActor public static func info(_ message: @autoclosure () -> String) { emit(.info, message) }
    @MainActor public static func debug(_ message: @autoclosure () -> String) { emit(.debug, message) }

    @MainActor private static func emit(_ level: Level, _ message: () -> String) {
        guard level <= Log.level else { return }
        sink(level, message())
    }

    /// Writes `daydream-bridge: line` and a newline to standard error in one `write(2)`.
    public static func writeToStandardError(_ line: String) {
        let text = Array("daydream-bridge: \(line)\n".utf8)
        text.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
