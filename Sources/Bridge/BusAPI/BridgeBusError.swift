import DBus

/// The API's errors, `org.daydream_bridge.Error.*`, each with a message that says what would do.
enum BridgeBusError {
    /// A profile name the configuration does not have; the message lists the ones it has.
    static func unknownProfile(_ name: String, profiles: [String]) -> DBusError {
        error("UnknownProfile", "unknown profile '\(excerpt(name))'; profiles: \(profiles.joined(separator: ", "))")
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

    /// An argument longer than the method takes: its size and its start, never all of it.
    static func tooLong(_ what: String, _ value: String, limit: Int) -> DBusError {
        error("InvalidArgument", "\(what) is \(value.utf8.count) bytes, longer than the \(limit) taken: '\(excerpt(value))'")
    }

    /// `text` as quoted in a message: at most its first 64 bytes, then "..." when cut.
    static func excerpt(_ text: String) -> String {
        let start = prefix(of: text, bytes: 64)
        return start.utf8.count < text.utf8.count ? start + "..." : start
    }

    /// The longest start of `text` of at most `bytes` UTF-8 bytes that ends between scalars.
    static func prefix(of text: String, bytes: Int) -> String {
        guard text.utf8.count > bytes else { return text }
        var kept = 0
        var end = text.unicodeScalars.startIndex
        for scalar in text.unicodeScalars {
            let width = UTF8.width(scalar)
            guard kept + width <= bytes else { break }
            kept += width
            end = text.unicodeScalars.index(after: end)
        }
        return String(text.unicodeScalars[..<end])
    }

    private static func error(_ name: String, _ message: String) -> DBusError {
        DBusError(name: BridgeBusNames.errorPrefix + name, message: message)
    }
}
