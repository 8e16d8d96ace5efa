#if canImport(Glibc)
import Glibc
#endif

/// This process's environment, read a few variables at a time: the types that choose paths
/// and buses take a dictionary, so tests can hand them any environment.
public enum ProcessEnvironment {
    /// The variables among `names` that are set, with their values.
    public static func values(_ names: [String]) -> [String: String] {
        var result: [String: String] = [:]
        for name in names {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }
}
