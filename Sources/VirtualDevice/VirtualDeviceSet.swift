import EventVocabulary
import Timebase

/// The uinput devices of one controller: a gamepad, a mouse and a keyboard,
/// each created only when the capabilities need it, all destroyed together.
///
/// Create it once at start and keep it across Bluetooth drops: games lose a
/// pad that disappears.
public final class VirtualDeviceSet: OutputSink {
    private let devices: DevicesByKind<UInputDevice>
    public var label = ""

    /// Creates one device per kind `capabilities` has (see `DeviceLayout`).
    /// If one fails, those already made are destroyed and the error is thrown.
    public init(capabilities: Capabilities, gamepadIdentity: GamepadIdentity = .default) throws(VirtualDeviceError) {
        devices = try DevicesByKind(capabilities: capabilities, gamepadIdentity: gamepadIdentity) {
            (_, description) throws(VirtualDeviceError) in try UInputDevice(description)
        }
    }

    /// The device of `kind`, if it was created.
    public subscript(kind: OutputDeviceKind) -> UInputDevice? {
        devices[kind]
    }

    /// The kinds created, in `OutputDeviceKind` order.
    public var kinds: [OutputDeviceKind] {
        devices.kinds
    }

    /// One line per device for the log: kind, name and event node.
    public var summary: [String] {
        devices.summary
    }

    /// Writes `events`; see `OutputSink.send(_:at:)` (the kernel stamps the events itself).
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
