import EventLoop

extension Logger {
    /// Sends the library's log lines (`EventLoop.Log`: the loop, BlueZ, the controller manager) through
    /// this logger, so they get the same priorities and format; debug lines only with `-v`.
    public static func adoptLibraryLog() {
        Log.level = threshold >= .debug ? .debug : .info
        Log.sink = { level, line in
            switch level {
            case .error: Logger.error(line)
            case .warning: Logger.warning(line)
            case .info: Logger.info(line)
            case .debug: Logger.debug(line)
            }
        }
    }
}
