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
/// Whichever it is, each device is a `DeviceFrameWriter`, and `send` hands each event straight
/// to its device's.
///
/// Create it once at start and keep it across Bluetooth drops: games lose a pad that disappears.
/// A uinput device lost under the set (its writes fail with `ENODEV`: destroyed, uinput
/// reloaded) is dropped and made again, at rest; while that fails, it is tried again with a
/// growing delay (`DeviceRemaker`), and its events meanwhile fail with `deviceLost`.
public final class VirtualDeviceSet: OutputSink {
    /// Where the frames go: what the summary and the accessors read, never the packet path.
    private enum Placement {
        /// The kernel's devices (or a test's stand-ins, made the same way), in `kernelDevices`.
        case uinput
        case descriptor
        case memory(EventLog)
    }

    private let placement: Placement
    /// The devices, indexed by `OutputDeviceKind.rawValue`; a lost one is nil until made again.
    /// Replaced only between events (when a device is lost or made again); unchecked like the
    /// writers' states, it skips the run-time exclusivity checks on the per-event path.
    @exclusivity(unchecked) private var devices: [DeviceFrameWriter?]
    /// The same devices without a reference count of their own (`devices` keeps them alive), for
    /// the per-event path: a device read from `devices` is retained and released around each call.
    @exclusivity(unchecked) private var unretained: [Unmanaged<DeviceFrameWriter>?]
    /// The kernel's devices behind `devices`, by `OutputDeviceKind.rawValue`, kept for as long
    /// as the set (only a set of uinput devices has them).
    private var kernelDevices: [UInputDevice?]
    /// Makes a lost device again (sets whose devices are made, not handed a descriptor).
    private let remaker: DeviceRemaker?
    /// The kinds made, in `OutputDeviceKind` order.
    public let kinds: [OutputDeviceKind]
    public var label = ""

    /// Creates one uinput device per kind `capabilities` has. If one fails, those already made
    /// are destroyed and the error is thrown.
    public convenience init(capabilities: Capabilities, gamepadIdentity: GamepadIdentity = .default) throws(VirtualDeviceError) {
        try self.init(capabilities: capabilities, gamepadIdentity: gamepadIdentity, clock: MonotonicTime.now) {
            _, description throws(VirtualDeviceError) in
            let device = try UInputDevice(description)
            return MadeDevice(frames: device.frames, uinput: device)
        }
    }

    /// One device per kind `capabilities` has, each made by `make`, which makes a lost one
    /// again (`clock` times the retries). If one fails, those already made are dropped and
    /// the error is thrown.
    convenience init(
        capabilities: Capabilities, gamepadIdentity: GamepadIdentity = .default,
        clock: @escaping () -> MonotonicTime, make: @escaping DeviceMaker
    ) throws(VirtualDeviceError) {
        var made: [MadeDevice?] = Array(repeating: nil, count: OutputDeviceKind.count)
        var descriptions: [DeviceDescription?] = Array(repeating: nil, count: OutputDeviceKind.count)
        for (kind, description) in try Self.descriptions(capabilities, gamepadIdentity) {
            descriptions[Int(kind.rawValue)] = description
            made[Int(kind.rawValue)] = try make(kind, description)
        }
        self.init(
            devices: made.map { $0?.frames }, placement: .uinput, kernelDevices: made.map { $0?.uinput },
            remaker: DeviceRemaker(make: make, descriptions: descriptions, clock: clock))
    }

    /// The same devices, writing their frames to `fileDescriptor` (not owned) instead of uinput.
    public convenience init(
        capabilities: Capabilities, gamepadIdentity: GamepadIdentity = .default, fileDescriptor: Int32
    ) throws(VirtualDeviceError) {
        var made: [DeviceFrameWriter?] = Array(repeating: nil, count: OutputDeviceKind.count)
        for (kind, description) in try Self.descriptions(capabilities, gamepadIdentity) {
            made[Int(kind.rawValue)] = DeviceFrameWriter(description, fileDescriptor: fileDescriptor)
        }
        self.init(devices: made, placement: .descriptor)
    }

    /// The same devices in memory: each event checked as the real device would check it
    /// (declared codes, release logic) and each frame kept in `events`.
    public static func recording(
        capabilities: Capabilities, gamepadIdentity: GamepadIdentity = .default
    ) throws(VirtualDeviceError) -> VirtualDeviceSet {
        let log = EventLog()
        var made: [DeviceFrameWriter?] = Array(repeating: nil, count: OutputDeviceKind.count)
        for (kind, description) in try descriptions(capabilities, gamepadIdentity) {
            made[Int(kind.rawValue)] = DeviceFrameWriter(description, kind: kind, log: log)
        }
        return VirtualDeviceSet(devices: made, placement: .memory(log))
    }

    private init(
        devices: [DeviceFrameWriter?], placement: Placement, kernelDevices: [UInputDevice?] = [], remaker: DeviceRemaker? = nil
    ) {
        self.devices = devices
        unretained = devices.map { $0.map { Unmanaged.passUnretained($0) } }
        self.placement = placement
        self.kernelDevices = kernelDevices
        self.remaker = remaker
        kinds = OutputDeviceKind.allCases.filter { devices[Int($0.rawValue)] != nil }
    }

    /// The description of each device `capabilities` needs, in `OutputDeviceKind` order.
    private static func descriptions(
        _ capabilities: Capabilities, _ gamepadIdentity: GamepadIdentity
    ) throws(VirtualDeviceError) -> [(OutputDeviceKind, DeviceDescription)] {
        var result: [(OutputDeviceKind, DeviceDescription)] = []
        for kind in capabilities.deviceKinds {
            guard let codes = capabilities[kind] else { continue }
            result.append((kind, try DeviceLayout.description(for: kind, capabilities: codes, gamepadIdentity: gamepadIdentity)))
        }
        return result
    }

    /// The uinput device of `kind`, if the set has one (only a set of uinput devices does).
    public subscript(kind: OutputDeviceKind) -> UInputDevice? {
        kernelDevices.isEmpty ? nil : kernelDevices[Int(kind.rawValue)]
    }

    /// One line per device for the log: kind, name and where its frames go.
    public var summary: [String] {
        kinds.compactMap { kind in
            guard let device = devices[Int(kind.rawValue)] else {
                return remaker?.name(kind).map { "\(kind): \"\($0)\" lost, to be made again" }
            }
            let name = "\"\(device.deviceName)\""
            switch placement {
            case .uinput:
                let node = kernelDevices[Int(kind.rawValue)].flatMap { $0.devnode ?? $0.syspath } ?? "an unknown node"
                return "\(kind): \(name) at \(node)"
            case .descriptor: return "\(kind): \(name) as raw input_event frames on a file descriptor"
            case .memory: return "\(kind): \(name) in memory"
            }
        }
    }

    /// The state of the device of `kind` after the frames written so far.
    public func state(_ kind: OutputDeviceKind) -> DeviceState? {
        devices[Int(kind.rawValue)]?.state
    }

    /// Every event a recording set accepted, in order, `SYN_REPORT`s included (none for the others).
    public var events: [OutputEvent] {
        guard case .memory(let log) = placement else { return [] }
        return log.events
    }

    /// A recording set's events as lines: `gamepad EV_KEY BTN_SOUTH 1`.
    public var lines: [String] {
        events.map(EventCodeNames.line)
    }

    /// Forgets the events a recording set kept (the devices' states are kept).
    public func removeAll() {
        guard case .memory(let log) = placement else { return }
        log.events.removeAll(keepingCapacity: true)
    }

    /// Writes `events`; see `OutputSink.send(_:at:)` (the kernel stamps the events itself).
    public func send(_ events: [OutputEvent]) throws(VirtualDeviceError) {
        try events.withUnsafeBufferPointer { (events) throws(VirtualDeviceError) in try send(events, at: .zero) }
    }

    /// Hands each event to its device; every event is tried, and the first error is thrown after the rest.
    public func send(_ events: UnsafeBufferPointer<OutputEvent>, at time: MonotonicTime) throws(VirtualDeviceError) {
        // Until an event fails, no error to keep: the loop every packet runs carries none.
        var index = events.startIndex
        let firstError: VirtualDeviceError
        do throws(VirtualDeviceError) {
            while index < events.endIndex {
                try send(events[index])
                index += 1
            }
            return
        } catch {
            firstError = error
        }
        index += 1
        while index < events.endIndex {
            try? send(events[index])
            index += 1
        }
        throw firstError
    }

    private func send(_ event: OutputEvent) throws(VirtualDeviceError) {
        guard let device = unretained[Int(event.device.rawValue)] ?? remadeIfDue(event.device) else {
            throw missing(event.device)
        }
        // Borrowed for the call: `devices` holds the device for as long as `self` lives.
        let failure = device._withUnsafeGuaranteedRef { device -> VirtualDeviceError? in
            do throws(VirtualDeviceError) {
                try device.send(type: event.type, code: event.code, value: event.value)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw lost(event.device, failure) }
    }

    /// The device of `kind`, made again if it was lost and its next attempt is due.
    private func remadeIfDue(_ kind: OutputDeviceKind) -> Unmanaged<DeviceFrameWriter>? {
        guard let made = remaker?.remakeIfDue(kind) else { return nil }
        install(made, kind)
        return unretained[Int(kind.rawValue)]
    }

    /// Why there is no device of `kind`: it was lost (and not made again yet), or never made.
    private func missing(_ kind: OutputDeviceKind) -> VirtualDeviceError {
        guard let remaker, let code = remaker.lostErrno(kind), let name = remaker.name(kind) else {
            return .noSuchDevice(kind.description)
        }
        return .deviceLost(device: name, errno: code, remade: false)
    }

    /// A write to `kind`'s device failed with `error`: when that means the device is gone, it is
    /// dropped (destroyed) and made again at once if it can be; the error then says so.
    private func lost(_ kind: OutputDeviceKind, _ error: VirtualDeviceError) -> VirtualDeviceError {
        guard case .writeFailed(let name, let code) = error, let remaker, DeviceRemaker.meansDeviceGone(code) else {
            return error
        }
        install(nil, kind)
        let made = remaker.remakeLost(kind, errno: code)
        install(made, kind)
        return .deviceLost(device: name, errno: code, remade: made != nil)
    }

    /// Puts `made` in `kind`'s place (nil: none), dropping what was there.
    private func install(_ made: MadeDevice?, _ kind: OutputDeviceKind) {
        let index = Int(kind.rawValue)
        devices[index] = made?.frames
        unretained[index] = made.map { Unmanaged.passUnretained($0.frames) }
        if !kernelDevices.isEmpty { kernelDevices[index] = made?.uinput }
    }

    /// Releases everything; see `OutputSink.releaseAll(at:)`.
    public func releaseAll() throws(VirtualDeviceError) {
        try releaseAll(at: .zero)
    }

    /// Releases every device (one lost meanwhile is made again, at rest); the first error is
    /// thrown after the rest.
    public func releaseAll(at time: MonotonicTime) throws(VirtualDeviceError) {
        var firstError: VirtualDeviceError?
        for kind in kinds {
            do throws(VirtualDeviceError) {
                try devices[Int(kind.rawValue)]?.releaseAll()
            } catch {
                let error = lost(kind, error)
                if firstError == nil { firstError = error }
            }
        }
        if let firstError { throw firstError }
    }
}
