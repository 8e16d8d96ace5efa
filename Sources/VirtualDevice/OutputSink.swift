import EventVocabulary
import Timebase

/// Where the bridge writes the mapping's output: devices (`VirtualDeviceSet`: uinput, raw frames
/// on a file descriptor, or memory), or printed lines. Each sink
/// says what it is (`summary`), so whoever holds one needs no other type.
public protocol OutputSink: AnyObject {
    /// Writes `events`, produced at `time`, in order. Each device's events go out as one frame
    /// when that device's `SYN_REPORT` comes. An event the sink cannot take is skipped, the
    /// others are still written, then the first error is thrown. Devices the kernel stamps
    /// ignore `time`; sinks that print or record keep it.
    func send(_ events: UnsafeBufferPointer<OutputEvent>, at time: MonotonicTime) throws(VirtualDeviceError)

    /// Releases every key that is down and returns every axis to rest, one frame (ending in
    /// `SYN_REPORT`) per device that was not at rest, at `time`. A partly sent frame is dropped first.
    func releaseAll(at time: MonotonicTime) throws(VirtualDeviceError)

    /// Fits the devices to a new config's `capabilities` and gamepad identity in place, keeping
    /// each device its description still fits (`DeviceFit`), and says what it did; nil when this
    /// sink cannot, and then the caller makes new devices. Called with nothing held by the
    /// mapping that a changed device could keep.
    func fitted(to capabilities: Capabilities, gamepadIdentity: GamepadIdentity) throws(VirtualDeviceError) -> DeviceRefit?

    /// One line per device for the log: kind, name and where it is.
    var summary: [String] { get }

    /// What the devices are called (the controller's address); sinks that print show it.
    var label: String { get set }
}

extension OutputSink {
    /// A sink that cannot fit its devices to a new config: the caller makes new ones.
    public func fitted(to capabilities: Capabilities, gamepadIdentity: GamepadIdentity) throws(VirtualDeviceError) -> DeviceRefit? {
        nil
    }

    /// Writes everything in `buffer`, produced at `time`; see `send(_:at:)`.
    public func send(_ buffer: borrowing OutputBuffer, at time: MonotonicTime) throws(VirtualDeviceError) {
        try buffer.withEvents { (events) throws(VirtualDeviceError) in try send(events, at: time) }
    }

    /// Writes `events`, produced at `time`; see `send(_:at:)`.
    public func send(_ events: [OutputEvent], at time: MonotonicTime) throws(VirtualDeviceError) {
        try events.withUnsafeBufferPointer { (events) throws(VirtualDeviceError) in try send(events, at: time) }
    }
}
