import DBus

/// The API's errors, `org.daydream_bridge.Error.*`, each with a message that says what would do.
enum BridgeBusError {
    /// A command the bridge refused: the same message every door shows, under the refusal's name.
    static func refused(_ refusal: BridgeRefusal) -> DBusError {
        error(refusal.name, refusal.message)
    }

    /// An argument the method cannot take (an empty application id).
    static func invalidArgument(_ message: String) -> DBusError {
        error("InvalidArgument", message)
    }

    /// An argument longer than the method takes: its size and its start, never all of it.
    static func tooLong(_ what: String, _ value: String, limit: Int) -> DBusError {
        error("InvalidArgument", "\(what) is \(value.utf8.count) bytes, longer than the \(limit) taken: '\(BridgeRefusal.excerpt(value))'")
    }

    private static func error(_ name: String, _ message: String) -> DBusError {
        DBusError(name: BridgeBusNames.errorPrefix + name, message: message)
    }
}
