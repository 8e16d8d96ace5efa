#if canImport(Glibc)
import Glibc
#endif
import DBus

/// Which bus the D-Bus API is on: `run --bus session|system|none`.
public enum BusChoice: String, CaseIterable, Sendable {
    /// The user's session bus: the user unit's, and a desktop's widgets'.
    case session
    /// The system bus: the system unit's, with the policy file `make install` puts in place.
    case system
    /// No D-Bus API.
    case none

    /// The default: the session bus when `DBUS_SESSION_BUS_ADDRESS` is set, else none.
    public static func defaultChoice(environment: [String: String]) -> BusChoice {
        environment["DBUS_SESSION_BUS_ADDRESS"].map { $0.isEmpty ? .none : .session } ?? .none
    }

    /// The bus's address: `$DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus` (where
    /// systemd's user manager and dbus-user-session put it), for the session bus; the one BlueZ
    /// is reached on for the system bus. Nil for `none`, or a session bus with neither.
    @MainActor
    public func address(environment: [String: String]) -> String? {
        switch self {
        case .session:
            if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
            return environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : "unix:path=\($0)/bus" }
        case .system:
            return BusConnection.systemBusAddress
        case .none:
            return nil
        }
    }

    /// The variables the choice reads, from this process's environment.
    public static func processEnvironment() -> [String: String] {
        ProcessEnvironment.values(["DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"])
    }

    /// `the session bus`, for log lines.
    public var description: String { "the \(rawValue) bus" }
}
