/// The reload policy: read and validate the new config first; switch to it
/// only when it is valid, otherwise keep the running one and say why.
///
/// The daemon calls `reload()` when the `ConfigWatcher` reports a change or
/// on SIGHUP, then hands a new configuration to the engine (which releases
/// everything held before switching).
public struct ConfigReloader: Sendable {
    /// What a reload did.
    public enum Outcome: Sendable, Equatable {
        /// The new config is valid and now current.
        case reloaded(LoadedConfig)
        /// The new text decodes to the configuration already running: nothing to do.
        case unchanged
        /// The new config is broken or unreadable: the running one stays. The lines say why,
        /// as `FILE:LINE:COLUMN: error: MESSAGE`, ready for the log.
        case kept(reasons: [String])
    }

    /// The running configuration.
    public private(set) var current: LoadedConfig
    /// Where reloads read from: by default the place `current` came from.
    public var source: ConfigSource

    /// A reloader that starts with `current` and reads `source` again on reload.
    public init(current: LoadedConfig, source: ConfigSource? = nil) {
        self.current = current
        self.source = source ?? current.source
    }

    /// Reads and validates `source`; on success it becomes `current`.
    public mutating func reload() -> Outcome {
        do {
            return adopt(try ConfigLoader.load(source))
        } catch {
            return .kept(reasons: error.lines)
        }
    }

    private mutating func adopt(_ loaded: LoadedConfig) -> Outcome {
        guard loaded != current else { return .unchanged }
        current = loaded
        return .reloaded(loaded)
    }
}
