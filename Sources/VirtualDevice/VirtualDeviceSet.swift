import EventVocabulary
import Timebase

/// The output devices of one controller: a gamepad, a mouse, a keyboard and the other kinds,
/// each made only when the capabilities need it (see `DeviceLayout`), every event checked as
/// the kernel's device would take it and routed to its device, all released and destroyed
/// together. Where the frames go is chosen when the set is made:
/// - `init(capabilities:gamepadIdentity:)`: uinput devices (what the daemon makes);
/// - `init(capabilities:gamepadIdentity:fileDescriptor:)`: each frame as raw `struct input_event`s
///   with one `write(2)` on a descriptor, the daemon's work minus uinput, for measuring it where
///   there is no `/dev/uinput` (`run --write-events`; all devices share the descriptor);
/// - `recording(capabilities:gamepadIdentity:)`: memory, every event kept (tests, `--print`).
///
/// Create it once at start and keep it across Bluetooth drops: games lose a pad that disappears.
public final class VirtualDeviceSet: OutputSink {
    /// The devices, by where their frames go.
    private enum Devices {
        case uinput(DevicesByKind<UInputDevice>)
        case descriptor(DevicesByKind<DeviceFrameWriter>)
        case memory(DevicesByKind<RecordedDevice>, EventLog)
    }

    private let devices: Devices
    public var label = ""

    /// Creates one uinput device per kind `capabilities` has. If one fails, those already made
    /// are destroyed and the error is thrown.
    public init(capabilities: Capabilities, gamepadIdentity: GamepadIdentity = .default) throws(VirtualDeviceError) {
        devices = .uinput(try DevicesByKind(capabilities: capabilities, gamepadIdentity: gamepadIdentity) {
            (_, description) throws(VirtualDeviceError) in try UInputDevice(description)
        })
    }

    /// The same devices, writing their frames to `fileDescriptor` (not owned) instead of uinput.
    public init(
        capabilities: Capabilities, gamepadIdentity: GamepadIdentity = .default, fileDescriptor: Int32
    ) throws(VirtualDeviceError) {
        devices = .descriptor(try DevicesByKind(capabilities: capabilities, gamepadIdentity: gamepadIdentity) { _, description in
            DeviceFrameWriter(description, fileDescriptor: fileDescriptor)
        })
    }

    private init(devices: Devices) {
        self.devices = devices
    }

    /// The same devices in memory: each event checked as the real device would check it
    /// (declared codes, release logic) and kept in `events`.
    public static func recording(
        capabilities: Capabilities, gamepadIdentity: GamepadIdentity = .default
    ) throws(VirtualDeviceError) -> VirtualDeviceSet {
        let log = EventLog()
        let devices = try DevicesByKind(capabilities: capabilities, gamepadIdentity: gamepadIdentity) { kind, description in
            RecordedDevice(kind: kind, description: description, log: log)
        }
        return VirtualDeviceSet(devices: .memory(devices, log))
    }

    /// The uinput device of `kind`, if the set has one (only a set of uinput devices does).
    public subscript(kind: OutputDeviceKind) -> UInputDevice? {
        guard case .uinput(let devices) = self.devices else { return nil }
        return devices[kind]
    }

    /// The kinds made, in `OutputDeviceKind` order.
    public var kinds: [OutputDeviceKind] {
        switch devices {
        case .uinput(let devices): devices.kinds
        case .descriptor(let devices): devices.kinds
        case .memory(let devices, _): devices.kinds
        }
    }

    /// One line per device for the log: kind, name and where its frames go.
    public var summary: [String] {
        switch devices {
        case .uinput(let devices): devices.summary
        case .descriptor(let devices): devices.summary
        case .memory(let devices, _): devices.summary
        }
    }

    /// The state of the device of `kind` after the frames written so far.
    public func state(_ kind: OutputDeviceKind) -> DeviceState? {
        switch devices {
        case .uinput(let devices): devices[kind]?.state
        case .descriptor(let devices): devices[kind]?.state
        case .memory(let devices, _): devices[kind]?.state
        }
    }

    /// Every event a recording set accepted, in order, `SYN_REPORT`s included (none for the others).
    public var events: [OutputEvent] {
        guard case .memory(_, let log) = self.devices else { return [] }
        return log.events
    }

    /// A recording set's events as lines: `gamepad EV_KEY BTN_SOUTH 1`.
    public var lines: [String] {
        events.map(EventCodeNames.line)
    }

    /// Forgets the events a recording set kept (the devices' states are kept).
    public func removeAll() {
        guard case .memory(_, let log) = self.devices else { return }
        log.events.removeAll(keepingCapacity: true)
    }

    /// Writes `events`; see `OutputSink.send(_:at:)` (the kernel stamps the events itself).
    public func send(_ events: [OutputEvent]) throws(VirtualDeviceError) {
        try events.withUnsafeBufferPointer { (events) throws(VirtualDeviceError) in try send(events, at: .zero) }
    }

    public func send(_ events: UnsafeBufferPointer<OutputEvent>, at time: MonotonicTime) throws(VirtualDeviceError) {
        switch devices {
        case .uinput(let devices): try devices.send(events)
        case .descriptor(let devices): try devices.send(events)
        case .memory(let devices, _): try devices.send(events)
        }
    }

    /// Releases everything; see `OutputSink.releaseAll(at:)`.
    public func releaseAll() throws(VirtualDeviceError) {
        try releaseAll(at: .zero)
    }

    public func releaseAll(at time: MonotonicTime) throws(VirtualDeviceError) {
        switch devices {
        case .uinput(let devices): try devices.releaseAll()
        case .descriptor(let devices): try devices.releaseAll()
        case .memory(let devices, _): try devices.releaseAll()
        }
    }
}
