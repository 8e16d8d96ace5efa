import Mapping
import Timebase

/// A controller's output in the daemon: its devices (a `SinkOutput` on whatever sink the
/// command line chose; a test's own in tests), kept from when they are made until the daemon exits.
@MainActor
public protocol DeviceOutput: BridgeOutput {
    /// Releases whatever the devices still hold by their own record: the safety net after the
    /// engine's release on exit and before devices are replaced.
    func releaseHeld(at time: MonotonicTime)
    /// One line per device for the log.
    var summary: [String] { get }
    /// What the devices are called in log lines (and in `run --print` output): the controller's address.
    var label: String { get set }
}
