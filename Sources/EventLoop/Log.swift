#if canImport(Glibc)
import Glibc
#endif

/// Where a library's log lines go and how many: the embedding program's choice. Lines carry no
/// program name (the library does not know the program's); a sink adds one if it wants.
public struct LogSink: Sendable {
    /// The most detailed level passed on.
    public var level: Log.Level
    private let write: @MainActor @Sendable (Log.Level, String) -> Void

    /// A sink that passes lines up to `level` to `write`.
    public init(level: Log.Level = .info, write: @escaping @MainActor @Sendable (Log.Level, String) -> Void) {
        self.level = level
        self.write = write
    }

    /// Each line as it is, on standard error; `DAYDREAM_DEBUG=1` in the environment turns on debug.
    public static var standardError: LogSink {
        LogSink(level: getenv("DAYDREAM_DEBUG") != nil ? .debug : .info) { _, line in Log.writeToStandardError(line) }
    }

    @MainActor public func error(_ message: @autoclosure () -> String) { emit(.error, message) }
    @MainActor public func warning(_ message: @autoclosure () -> String) { emit(.warning, message) }
    @MainActor public func info(_ message: @autoclosure () -> String) { emit(.info, message) }
    @MainActor public func debug(_ message: @autoclosure () -> String) { emit(.debug, message) }

    @MainActor private func emit(_ level: Log.Level, _ message: () -> String) {
        guard level <= self.level else { return }
        write(level, message())
    }
}

/// The log of the parts below the controller manager (the loop, libdbus, the BlueZ client): one
/// sink for the process, standard error until the program sets another. The manager logs
/// through the sink it is given.
public enum Log {
    /// How much is written.
    public enum Level: Int, Comparable, Sendable {
        case error, warning, info, debug
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Where lines go; `LogSink.standardError` by default.
    @MainActor public static var sink = LogSink.standardError

    @MainActor public static func error(_ message: @autoclosure () -> String) { sink.error(message()) }
    @MainActor public static func warning(_ message: @autoclosure () -> String) { sink.warning(message()) }
    @MainActor public static func info(_ message: @autoclosure () -> String) { sink.info(message()) }
    @MainActor public static func debug(_ message: @autoclosure () -> String) { sink.debug(message()) }

    /// Writes `line` and a newline to standard error in one `write(2)`.
    public static func writeToStandardError(_ line: String) {
        let text = Array("\(line)\n".utf8)
        text.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
