import DaydreamProtocol
import Timebase

/// Something the engine did that the bridge may want to log.
public enum MappingNotice: Hashable, Sendable {
    /// The active profile changed (by chord, action or `switchProfile`).
    case profileChanged(from: String, to: String)
    /// The tilt's zero was taken from the current orientation.
    case recentered
}

/// The pure mapping engine: controller snapshots and the time in, output events and the next deadline out.
///
/// It reads no clock and touches no file: time comes in as a parameter, events go into the
/// caller's `OutputBuffer`. After `update` and `advance`, arm a timer for `nextDeadline` and call
/// `advance(to:)` when it fires. The update path allocates nothing in steady state.
public struct MappingEngine: Sendable {
    /// The configuration in force.
    public private(set) var configuration: MappingConfiguration
    /// The devices the bridge must create for this configuration.
    public private(set) var capabilities: Capabilities
    /// The active profile's name.
    public var profileName: String { "" }
    /// The earliest time `advance(to:)` has work to do, or nil when nothing is waiting.
    public var nextDeadline: MonotonicTime? { nil }

    /// An engine in the named profile (or, when nil or unknown, the configuration's starting profile).
    public init(configuration: MappingConfiguration, profileName: String? = nil) {
        self.configuration = configuration
        self.capabilities = configuration.capabilities
    }

    /// Maps a new controller snapshot taken at `time`; deadlines up to `time` are handled first.
    public mutating func update(_ input: ControllerInput, at time: MonotonicTime, into output: inout OutputBuffer) {}

    /// Handles deadlines (hold thresholds) up to `time`.
    public mutating func advance(to time: MonotonicTime, into output: inout OutputBuffer) {}

    /// Releases every key and button that is down and centres every axis, then `SYN_REPORT`
    /// per device. Buttons still physically held are ignored until they are released.
    public mutating func releaseAll(into output: inout OutputBuffer) {}

    /// Releases everything, then makes `name` the active profile. False (and nothing done) when no such profile.
    @discardableResult
    public mutating func switchProfile(to name: String, at time: MonotonicTime, into output: inout OutputBuffer) -> Bool {
        false
    }

    /// Releases everything, then takes a new configuration, staying in the same profile when it still exists.
    public mutating func reload(_ configuration: MappingConfiguration, at time: MonotonicTime, into output: inout OutputBuffer) {}

    /// The notices since the last call, oldest first.
    public mutating func takeNotices() -> [MappingNotice] { [] }
}
