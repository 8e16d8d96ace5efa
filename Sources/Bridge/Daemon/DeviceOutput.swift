import Mapping
import Timebase
import VirtualDevice

/// A controller's output in the daemon: its virtual devices (or, for tests and `run --print`,
/// standard output), kept from when they are made until the daemon exits.
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

extension SinkOutput: DeviceOutput {
    public func releaseHeld(at time: MonotonicTime) {
        releaseAll()
    }

    public var summary: [String] {
        (sink as? VirtualDeviceSet)?.summary ?? (sink as? PipeDeviceSet)?.summary ?? []
    }
}

extension EventLineOutput: DeviceOutput {
    public var summary: [String] { ["printing events on standard output instead of creating devices"] }
}
