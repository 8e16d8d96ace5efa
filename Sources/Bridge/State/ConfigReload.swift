import BridgeConfig

/// The running bridge's last reading of its config (its file changed, or a `reload`), and what
/// came of it: the state keeps the last one, and announces each one, so that a view (the editor
/// page, through `watch`) can say the bridge reloaded, or kept its config, and when.
public struct ConfigReload: Equatable, Sendable {
    /// What the reading did.
    public enum Outcome: Equatable, Sendable {
        /// The new config is running.
        case reloaded
        /// The file decodes to the config already running.
        case unchanged
        /// The new config has errors (or cannot be read): the running one stays, for these reasons.
        case kept(reasons: [String])
    }

    /// How many readings since the bridge started: two alike in a row are still two.
    public var number: Int
    /// What it did.
    public var outcome: Outcome

    /// `number`, `outcome`.
    public init(number: Int, outcome: Outcome) {
        self.number = number
        self.outcome = outcome
    }

    /// The outcome of `ConfigReloader.reload()` as the state keeps it.
    init(number: Int, _ outcome: ConfigReloader.Outcome) {
        self.number = number
        switch outcome {
        case .reloaded: self.outcome = .reloaded
        case .unchanged: self.outcome = .unchanged
        case .kept(let reasons): self.outcome = .kept(reasons: reasons)
        }
    }
}
