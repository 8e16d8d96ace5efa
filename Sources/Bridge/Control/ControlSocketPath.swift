#if canImport(Glibc)
import Glibc
#endif

/// Where the control socket lives.
///
/// The daemon of a user unit (or a terminal) uses `$XDG_RUNTIME_DIR/daydream-bridge/control`;
/// the system unit, which gets `RUNTIME_DIRECTORY` from `RuntimeDirectory=daydream-bridge`, uses
/// `$RUNTIME_DIRECTORY/control` (`/run/daydream-bridge/control`). A client tries the user's path,
/// then the system one.
public enum ControlSocketPath {
    /// The system unit's socket.
    public static let system = "/run/daydream-bridge/control"

    /// The user's socket, or nil without an absolute `XDG_RUNTIME_DIR`.
    public static func user(environment: [String: String]) -> String? {
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
        return (runtime.hasSuffix("/") ? runtime : runtime + "/") + "daydream-bridge/control"
    }

    /// Where a daemon in this environment listens: `RUNTIME_DIRECTORY` (its first entry) when systemd set
    /// it, else the user's path, else the system path (a daemon run as root outside systemd).
    public static func forDaemon(environment: [String: String]) -> String {
        if let directories = environment["RUNTIME_DIRECTORY"],
           let first = directories.split(separator: ":").first, first.hasPrefix("/") {
            return (first.hasSuffix("/") ? String(first) : first + "/") + "control"
        }
        return user(environment: environment) ?? system
    }

    /// Where a client looks, in order.
    public static func candidatesForClient(environment: [String: String]) -> [String] {
        (user(environment: environment).map { [$0] } ?? []) + [system]
    }

    /// This process's environment, for the functions above.
    public static func processEnvironment() -> [String: String] {
        ProcessEnvironment.values(["XDG_RUNTIME_DIR", "RUNTIME_DIRECTORY"])
    }
}
