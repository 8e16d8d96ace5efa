import BridgeConfig
import Mapping

/// The configuration a command runs with: `--config FILE` when given, else the lookup
/// (`$XDG_CONFIG_HOME`, `/etc`, the built-in default).
public enum ConfigurationChoice {
    /// Where the config comes from for this command line.
    public static func source(path: String?) -> ConfigSource {
        if let path { return .file(path) }
        return ConfigLookup.locate(environment: ConfigLookup.processEnvironment())
    }

    /// The names of a configuration's profiles, for messages: `gamepad, mouse, presenter`.
    public static func profileList(_ configuration: MappingConfiguration) -> String {
        configuration.profiles.map(\.name).joined(separator: ", ")
    }

    /// The message for a profile name the configuration lacks, naming the ones it has.
    public static func unknownProfile(_ name: String, in loaded: LoadedConfig) -> String {
        "\(loaded.source) has no profile '\(name)'; its profiles: \(profileList(loaded.configuration))"
    }
}
