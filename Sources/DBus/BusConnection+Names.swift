/// Owning a well-known name on the bus (`org.freedesktop.DBus.RequestName`).
extension BusConnection {
    /// What `RequestName` answered.
    public enum NameRequestReply: UInt32, Sendable {
        /// This connection owns the name now.
        case primaryOwner = 1
        /// Another connection owns it; this one is queued and gets it when that one lets go
        /// (the bus then sends `NameAcquired`).
        case inQueue = 2
        /// Another connection owns it and this one is not queued.
        case exists = 3
        /// This connection owned it already.
        case alreadyOwner = 4
    }

    /// Asks the bus for `name`, queueing behind its current owner (so the name passes to this
    /// connection when that one exits); `completion` gets the answer, or the error (a policy that
    /// forbids this user to own the name answers `AccessDenied`).
    public func requestName(_ name: String, completion: @escaping @MainActor (Result<NameRequestReply, DBusError>) -> Void) {
        call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
             method: "RequestName", arguments: [.string(name), .uint32(0)]) { result in
            completion(result.flatMap { values in
                guard let code = values.first?.integer, let reply = NameRequestReply(rawValue: UInt32(clamping: code)) else {
                    return .failure(DBusError(name: "org.freedesktop.DBus.Error.Failed", message: "RequestName answered \(values)"))
                }
                return .success(reply)
            })
        }
    }
}
