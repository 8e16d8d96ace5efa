import DBus

/// The API's errors, `org.daydream_bridge.Error.*`, each with a message that says what would do.
enum BridgeBusError {
    /// A profile name the configuration does not have; the message lists the ones it has.
    static func unknownProfile(_ name: String, profiles: [String]) -> DBusError {
        error("UnknownProfile", "unknown profile '\(name)'; profiles: \(profiles.joined(separator: ", "))")
    }

    /// A controller the daemon no longer has a session for.
    static func noController(_ address: String) -> DBusError {
        error("NoController", "no controller \(address)")
    }

    /// A controller that is not connected, so it cannot be measured.
    static func notConnected(_ address: String) -> DBusError {
        error("NotConnected", "controller \(address) is not connected; connect it, hold it still and calibrate again")
    }

    /// A reload that found errors: the running config stays.
    static func invalidConfig(_ reasons: [String]) -> DBusError {
        error("InvalidConfig", "the config has errors, so the running one stays:\n" + reasons.joined(separator: "\n"))
    }

    /// An argument the method cannot take (an empty application id).
    static func invalidArgument(_ message: String) -> DBusError {
        error("InvalidArgument", message)
    }

    private static func error(_ name: String, _ message: String) -> DBusError {
        DBusError(name: BridgeBusNames.errorPrefix + name, message: message)
    }
}
