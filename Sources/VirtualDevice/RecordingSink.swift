import EventVocabulary
import Timebase

/// An `OutputSink` that keeps every event in memory, checked exactly as the
/// real devices would check them: same layouts, same declared codes, same
/// release logic. For tests and `replay --print`.
public final class RecordingSink: OutputSink {
    private let log = EventLog()
    private let devices: DevicesByKind<RecordedDevice>
    public var label = ""

    /// A sink with the devices `VirtualDeviceSet` would create for these
    /// capabilities (descriptions built and checked the same way).
    public init(capabilities: Capabilities, gamepadIdentity: GamepadIdentity = .default) throws(VirtualDeviceError) {
        let log = self.log
        devices = try DevicesByKind(capabilities: capabilities, gamepadIdentity: gamepadIdentity) { kind, description in
            RecordedDevice(kind: kind, description: description, log: log)
        }
    }

    /// Every event accepted, in order, `SYN_REPORT`s included.
    public var events: [OutputEvent] { log.events }

    /// The kinds this sink has, in `OutputDeviceKind` order.
    public var kinds: [OutputDeviceKind] { devices.kinds }

    /// The state of the device of `kind` after the events so far.
    public func state(_ kind: OutputDeviceKind) -> DeviceState? {
        devices[kind]?.state
    }

    /// Forgets the recorded events (device states are kept).
    public func removeAll() {
        log.events.removeAll(keepingCapacity: true)
    }

    /// Every event as a line: `gamepad EV_KEY BTN_SOUTH 1`.
    public var lines: [String] {
        events.map(EventCodeNames.line)
    }

    /// One line per device: kind and name.
    public var summary: [String] { devices.summary }

    /// Records `events`; see `OutputSink.send(_:at:)`.
    public func send(_ events: [OutputEvent]) throws(VirtualDeviceError) {
        try events.withUnsafeBufferPointer { (events) throws(VirtualDeviceError) in try devices.send(events) }
    }

    public func send(_ events: UnsafeBufferPointer<OutputEvent>, at time: MonotonicTime) throws(VirtualDeviceError) {
        try devices.send(events)
    }

    /// Records the release of everything; see `OutputSink.releaseAll(at:)`.
    public func releaseAll() throws(VirtualDeviceError) {
        try devices.releaseAll()
    }

    public func releaseAll(at time: MonotonicTime) throws(VirtualDeviceError) {
        try devices.releaseAll()
    }
}
