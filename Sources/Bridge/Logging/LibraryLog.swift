import EventLoop

extension Logger {
    /// The library's log lines (the loop, BlueZ, the controller manager) through this logger, with
    /// its priorities and format; debug lines only with `-v`. The manager is given it; the parts
    /// below get it with `adoptLibraryLog()`.
    public static var librarySink: LogSink {
        LogSink(level: threshold >= .debug ? .debug : .info) { level, line in
            switch level {
            case .error: Logger.error(line)
            case .warning: Logger.warning(line)
            case .info: Logger.info(line)
            case .debug: Logger.debug(line)
            }
        }
    }

    /// Sends the log of the parts below the manager (`EventLoop.Log`) through this logger.
    public static func adoptLibraryLog() {
        Log.sink = librarySink
    }

    /// The library's lines as the commands without a log of their own (`scan`, `pair`, `list`,
    /// `forget`) have always written them: `daydream-bridge: line`, whatever the level.
    public nonisolated static var plainSink: LogSink {
        LogSink(level: LogSink.standardError.level) { _, line in Logger.writeToStandardError("daydream-bridge: \(line)\n") }
    }
}
