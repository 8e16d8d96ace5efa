import EventVocabulary
import Timebase

/// The devices `VirtualDeviceSet` would create, with a file descriptor (a pipe) in place of the
/// kernel: each event is checked against the same device layouts and each device's frame goes
/// out as raw `struct input_event`s with one `write(2)`, exactly the work the daemon does for
/// uinput, minus uinput itself.
///
/// For measuring the daemon where there is no `/dev/uinput` (`run --write-events`): unlike
/// `run --print`, it formats no text. The frames of all devices share the descriptor.
public final class PipeDeviceSet: OutputSink {
    private let devices: DevicesByKind<DeviceFrameWriter>
    public var label = ""

    /// One device per kind `capabilities` has, as `VirtualDeviceSet` makes them, writing to
    /// `fileDescriptor` (not owned).
    public init(
        capabilities: Capabilities, gamepadIdentity: GamepadIdentity = .default, fileDescriptor: Int32
    ) throws(VirtualDeviceError) {
        devices = try DevicesByKind(capabilities: capabilities, gamepadIdentity: gamepadIdentity) { _, description in
            DeviceFrameWriter(description, fileDescriptor: fileDescriptor)
        }
    }

    /// One line per device for the log: kind and name.
    public var summary: [String] {
        devices.summary
    }

    /// Writes `events`; see `OutputSink.send(_:at:)`.
    public func send(_ events: [OutputEvent]) throws(VirtualDeviceError) {
        try events.withUnsafeBufferPointer { (events) throws(VirtualDeviceError) in try devices.send(events) }
    }

    public func send(_ events: UnsafeBufferPointer<OutputEvent>, at time: MonotonicTime) throws(VirtualDeviceError) {
        try devices.send(events)
    }

    /// Releases everything; see `OutputSink.releaseAll(at:)`.
    public func releaseAll() throws(VirtualDeviceError) {
        try devices.releaseAll()
    }

    public func releaseAll(at time: MonotonicTime) throws(VirtualDeviceError) {
        try devices.releaseAll()
    }
}
