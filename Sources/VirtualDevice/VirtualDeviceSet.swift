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
    /// Makes a lost device again (sets of uinput devices).
    private let remaker: DeviceRemaker?
    /// Makes a device of the set's placement from its description (for a refit).
    private let make: DeviceMaker
    /// What each device was made from, by `OutputDeviceKind.rawValue`.
    private var descriptions: [DeviceDescription?]
    /// The kinds made, in `OutputDeviceKind` order.
    public private(set) var kinds: [OutputDeviceKind]
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
        let descriptions = try Self.descriptions(capabilities, gamepadIdentity)
        try self.init(
            descriptions: descriptions, placement: .uinput, make: make,
            remaker: DeviceRemaker(make: make, descriptions: descriptions, clock: clock))
    }

    /// The same devices, writing their frames to `fileDescriptor` (not owned) instead of uinput.
    public convenience init(
        capabilities: Capabilities, gamepadIdentity: GamepadIdentity = .default, fileDescriptor: Int32
    ) throws(VirtualDeviceError) {
        try self.init(descriptions: try Self.descriptions(capabilities, gamepadIdentity), placement: .descriptor) { _, description in
            MadeDevice(frames: DeviceFrameWriter(description, fileDescriptor: fileDescriptor), uinput: nil)
        }
    }

    /// The same devices in memory: each event checked as the real device would check it
    /// (declared codes, release logic) and each frame kept in `events`.
    public static func recording(
        capabilities: Capabilities, gamepadIdentity: GamepadIdentity = .default
    ) throws(VirtualDeviceError) -> VirtualDeviceSet {
        let log = EventLog()
        return try VirtualDeviceSet(descriptions: try descriptions(capabilities, gamepadIdentity), placement: .memory(log)) {
            kind, description in MadeDevice(frames: DeviceFrameWriter(description, kind: kind, log: log), uinput: nil)
        }
    }

    /// One device per description, each made by `make`. If one fails, those already made are
    /// dropped and the error is thrown.
    private init(
        descriptions: [DeviceDescription?], placement: Placement, make: @escaping DeviceMaker, remaker: DeviceRemaker? = nil
    ) throws(VirtualDeviceError) {
        var made: [MadeDevice?] = Array(repeating: nil, count: OutputDeviceKind.count)
        for kind in OutputDeviceKind.allCases {
            guard let description = descriptions[Int(kind.rawValue)] else { continue }
            made[Int(kind.rawValue)] = try make(kind, description)
        }
        devices = made.map { $0?.frames }
        unretained = made.map { $0.map { Unmanaged.passUnretained($0.frames) } }
        self.placement = placement
        if case .uinput = placement { kernelDevices = made.map { $0?.uinput } } else { kernelDevices = [] }
        self.remaker = remaker
        self.make = make
        self.descriptions = descriptions
        kinds = OutputDeviceKind.allCases.filter { descriptions[Int($0.rawValue)] != nil }
    }

    /// The description of each device `capabilities` needs, by `OutputDeviceKind.rawValue`
    /// (nil: no device of that kind).
    private static func descriptions(
        _ capabilities: Capabilities, _ gamepadIdentity: GamepadIdentity
    ) throws(VirtualDeviceError) -> [DeviceDescription?] {
        var result: [DeviceDescription?] = Array(repeating: nil, count: OutputDeviceKind.count)
        for kind in capabilities.deviceKinds {
            guard let codes = capabilities[kind] else { continue }
            result[Int(kind.rawValue)] = try DeviceLayout.description(for: kind, capabilities: codes, gamepadIdentity: gamepadIdentity)
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

    /// Fits the devices to a new config's `capabilities` and gamepad identity, in place: a device
    /// whose description is unchanged stays, with whatever it holds (see `DeviceFit`); one whose
    /// description changed, and one no longer needed, first lets go of everything it holds (that
    /// frame written), then is replaced or dropped; a new kind gets a new device. When a
    /// description is refused or a device cannot be made, nothing is replaced and the error is
    /// thrown (the devices that were to go have been released).
    @discardableResult
    public func refit(capabilities: Capabilities, gamepadIdentity: GamepadIdentity = .default) throws(VirtualDeviceError) -> DeviceRefit {
        let wanted = try Self.descriptions(capabilities, gamepadIdentity)
        let refit = DeviceRefit(old: descriptions, new: wanted)
        guard !refit.keepsEveryDevice else { return refit }
        let leaving = refit.kinds(.remade) + refit.kinds(.dropped)
        for kind in leaving {
            // Going anyway: a device lost meanwhile has nothing to let go of.
            try? devices[Int(kind.rawValue)]?.releaseAll()
        }
        var made: [(OutputDeviceKind, MadeDevice)] = []
        for kind in refit.kinds(.remade) + refit.kinds(.added) {
            guard let description = wanted[Int(kind.rawValue)] else { continue }
            made.append((kind, try make(kind, description)))
        }
        for kind in leaving { install(nil, kind) }
        for (kind, device) in made { install(device, kind) }
        descriptions = wanted
        remaker?.adopt(wanted, changed: leaving + refit.kinds(.added))
        kinds = OutputDeviceKind.allCases.filter { wanted[Int($0.rawValue)] != nil }
        return refit
    }

    /// See `OutputSink.fitted(to:gamepadIdentity:)`: always fits, by `refit`.
    public func fitted(to capabilities: Capabilities, gamepadIdentity: GamepadIdentity) throws(VirtualDeviceError) -> DeviceRefit? {
        try refit(capabilities: capabilities, gamepadIdentity: gamepadIdentity)
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
