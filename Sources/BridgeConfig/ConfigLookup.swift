/// Where the bridge's config comes from.
public enum ConfigSource: Hashable, Sendable, CustomStringConvertible {
    /// A file at this path.
    case file(String)
    /// The built-in default (`DefaultConfig.text`, the same text as `config/default.toml`).
    case builtIn

    /// The path, or `<built-in default>`.
    public var description: String {
        switch self {
        case .file(let path): path
        case .builtIn: DefaultConfig.displayName
        }
    }
}

/// Finds the config file: `$XDG_CONFIG_HOME/daydream-bridge/config.toml`
/// (`~/.config` when `XDG_CONFIG_HOME` is unset, empty or relative, as the XDG
/// base directory spec says), then `/etc/daydream-bridge/config.toml`, else
/// the built-in default.
public enum ConfigLookup {
    /// The system-wide config file.
    public static let systemPath = "/etc/daydream-bridge/config.toml"

    /// The user's config file for this environment, or nil when neither
    /// `XDG_CONFIG_HOME` nor `HOME` gives an absolute directory.
    public static func userPath(environment: [String: String]) -> String? {
        if let configHome = environment["XDG_CONFIG_HOME"], configHome.hasPrefix("/") {
            return join(configHome, "daydream-bridge/config.toml")
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return join(home, ".config/daydream-bridge/config.toml")
        }
        return nil
    }

    /// The files looked at, in order.
    public static func candidatePaths(environment: [String: String]) -> [String] {
        (userPath(environment: environment).map { [$0] } ?? []) + [systemPath]
    }

    /// The first candidate `exists` accepts, else the built-in default.
    public static func locate(
        environment: [String: String],
        exists: (String) -> Bool = ConfigFile.exists
    ) -> ConfigSource {
        candidatePaths(environment: environment).first(where: exists).map { .file($0) } ?? .builtIn
    }

    private static func join(_ directory: String, _ relative: String) -> String {
        directory.hasSuffix("/") ? directory + relative : directory + "/" + relative
    }
}

#if canImport(Glibc)
import Glibc
#endif

extension ConfigLookup {
    /// The variables the lookup reads (`XDG_CONFIG_HOME`, `HOME`) from this process's environment.
    public static func processEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        for name in ["XDG_CONFIG_HOME", "HOME"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }
}
