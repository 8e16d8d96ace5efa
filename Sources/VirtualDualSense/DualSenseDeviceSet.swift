import Descriptors
import EventLoop
import EventVocabulary
import Mapping
import Timebase
import VirtualDevice
import VirtualHID

/// One controller's devices with `[gamepad] identity = "dualsense"`: the gamepad is a virtual
/// DualSense on `/dev/uhid` (hid-playstation makes its pad, motion and touchpad nodes and its
/// battery), the mouse and keyboard stay uinput devices.
///
/// The mapping engine still decides buttons and sticks: the gamepad's events become the
/// report's buttons, sticks, triggers and hat; the controller's own motion, touch and battery
/// fill the rest, which the set takes from the controller's feed as a `ControllerConsumer`
/// attached after the session. A report goes out at each gamepad `SYN_REPORT` and with each
/// packet's motion.
///
/// The uhid device is created when it is first written, with its address derived from the
/// label then (the controller's address: the daemon names a set before its first write), and
/// kept for the set's life: a controller that reconnects comes back into the same device.
///
/// A DualSense the kernel leaves silent does not leave the player without a pad: when no
/// driver binds it within `bindingDeadline` (hid-playstation not loaded, or refusing it), or
/// the kernel refuses a write, the set says why in one line and the bridge's own uinput
/// gamepad stands in. A device no driver took is kept: when hid-playstation takes it later
/// (the user loaded it), it replaces the stand-in, which lets go of everything as it goes.
///
/// A flood of output reports is read in batches, once a millisecond (`UHIDDrainPacing`).
@MainActor
public final class DualSenseDeviceSet: @MainActor OutputSink {
    /// The name the kernel gives the pad (its motion and touchpad nodes add " Motion Sensors",
    /// " Touchpad").
    public static let deviceName = "Daydream Controller DualSense"
    /// Sony's vendor id and the DualSense's product id, which hid-playstation binds.
    public static let sonyVendor: UInt32 = 0x054C
    public static let dualSenseProduct: UInt32 = 0x0CE6
    /// How long a driver has to bind the device once it is created (or once its driver let
    /// go): hid-playstation binds within milliseconds when it is there, loaded on demand included.
    public static let bindingDeadline = TimeSpan.seconds(5)

    /// The bus the DualSense is on: Bluetooth, as the controller is. SDL's bundled hidapi (SDL
    /// 2.26) skips a USB-bus hidraw device with no USB parent, and only a Bluetooth DualSense
    /// reports its battery to SDL; the reports then carry the Bluetooth CRC.
    public static let bus = UHIDMessage.bluetoothBus

    /// Makes the uinput gamepad that stands in for a silent DualSense, from the gamepad's
    /// capabilities alone.
    public typealias StandInFactory = (Capabilities) throws(VirtualDeviceError) -> any OutputSink

    public var label = "" {
        didSet {
            others.label = label
            standIn?.label = label
        }
    }
    /// Told, with one line that says what to do, when the DualSense is silent (and about
    /// malformed messages from the kernel, once).
    public var problemHandler: ((String) -> Void)?
    /// Told when the DualSense is made on `/dev/uhid` (with the `uniq` it was given, which
    /// hid-playstation reads back from the pairing report), and when hid-playstation takes a
    /// DualSense after the stand-in was made.
    public var noticeHandler: ((String) -> Void)?
    /// Called when the set stops using `fileDescriptor` (a device the kernel refused, or the
    /// set going with its devices), after its own watch (`watch(on:)`) is cancelled. Called once.
    public var closeHandler: (() -> Void)?

    private let scheduler: any DeadlineScheduler
    private let makeStandIn: StandInFactory
    private let padCapabilities: Capabilities
    private var pendingDescriptor: FileDescriptor?
    private var uhid: UHIDDevice?
    /// Whether the device had a driver when last looked at.
    private var bound = false
    private var deadline: ScheduledTimer?
    private var watch: IOWatch?
    private var pacing = UHIDDrainPacing()
    /// The next paced drain, in a flood of output reports.
    private var pacedDrain: ScheduledTimer?
    /// The uinput gamepad written instead of the DualSense, while it is silent.
    private var standIn: (any OutputSink)?
    /// The uinput devices of the other kinds (none, when the config needs only the gamepad).
    private let others: VirtualDeviceSet
    private var translator = DualSensePadTranslator()
    private var state = DualSenseInputState()
    private var encoder = DualSenseInputReportEncoder()
    private var gamepadChanged = false
    private var otherEvents: [OutputEvent] = []
    private var standInEvents: [OutputEvent] = []

    /// The DualSense on `uhid` (an open `/dev/uhid`, non-blocking) and uinput devices for the
    /// other kinds `capabilities` has; `scheduler` runs the binding deadline, `makeStandIn`
    /// makes the gamepad that stands in (the uinput one by default).
    public init(
        capabilities: Capabilities, uhid: consuming FileDescriptor, scheduler: any DeadlineScheduler,
        makeStandIn: @escaping StandInFactory = DualSenseDeviceSet.uinputGamepad
    ) throws(VirtualDeviceError) {
        pendingDescriptor = Optional(uhid)
        self.scheduler = scheduler
        self.makeStandIn = makeStandIn
        let pad = capabilities[.gamepad] ?? DeviceCapabilities()
        // The same check as the uinput pad that stands in: exactly the DualSense's codes.
        _ = try DeviceLayout.description(for: .gamepad, capabilities: pad, gamepadIdentity: .dualsense)
        padCapabilities = Capabilities([.gamepad: pad])
        var rest = capabilities
        rest[.gamepad] = nil
        others = try VirtualDeviceSet(capabilities: rest)
        otherEvents.reserveCapacity(64)
    }

    isolated deinit {
        // The daemon makes and drops its sinks on the main thread, the only place the reactor runs.
        deadline?.cancel()
        pacedDrain?.cancel()
        watch?.cancel()
        closeHandler?()
    }

    /// Reads what the kernel sends as `reactor` finds it, until the set stops using the
    /// descriptor (the watch is the set's).
    public func watch(on reactor: Reactor) throws(SystemCallError) {
        watch?.cancel()
        watch = try reactor.watch(fileDescriptor, interest: .readable) { [weak self] _ in self?.readAvailable() }
    }

    /// The bridge's own uinput gamepad, with the DualSense's codes.
    public nonisolated static func uinputGamepad(_ capabilities: Capabilities) throws(VirtualDeviceError) -> any OutputSink {
        try VirtualDeviceSet(capabilities: capabilities, gamepadIdentity: .dualsense)
    }

    /// The descriptor to watch for readability (then call `readAvailable()`); -1 once the set
    /// no longer uses one.
    public var fileDescriptor: Int32 {
        uhid?.fileDescriptor ?? pendingDescriptor?.rawValue ?? -1
    }

    /// What the uhid device ignored or failed at, when it exists.
    public var counters: UHIDDevice.Counters? { uhid?.counters }

    /// Whether the uinput gamepad stands in for a silent DualSense.
    public var isStandingIn: Bool { standIn != nil }

    /// The address the DualSense has (or will have, for the current label).
    public var address: DualSenseAddress { DualSenseAddress(controllerAddress: label) }

    /// Answers what the kernel asked for, and follows whether a driver has the device.
    public func readAvailable() {
        guard let device = uhid else { return }
        let drain = device.readAvailable()
        check(device)
        guard uhid != nil else { return }
        pace(after: drain)
    }

    /// The devices as they are: before the first write the DualSense has no `uniq` yet (it comes
    /// from the address of the controller the set is given by then), so none is named.
    public var summary: [String] {
        if let standIn { return standIn.summary + others.summary }
        let pad = if let uhid {
            "gamepad: \"\(Self.deviceName)\" (054c:0ce6, uniq \(uhid.device.uniq)) on /dev/uhid"
        } else {
            "gamepad: \"\(Self.deviceName)\" (054c:0ce6) on /dev/uhid when first written, its uniq from the controller's address"
        }
        return [pad] + others.summary
    }

    public func send(_ events: UnsafeBufferPointer<OutputEvent>, at time: MonotonicTime) throws(VirtualDeviceError) {
        otherEvents.removeAll(keepingCapacity: true)
        standInEvents.removeAll(keepingCapacity: true)
        let standingIn = standIn != nil
        for event in events {
            guard event.device == .gamepad else {
                otherEvents.append(event)
                continue
            }
            // The state follows the stand-in's events too: a DualSense that binds later starts from it.
            if standingIn { standInEvents.append(event) }
            if event.isSynReport {
                if gamepadChanged && !standingIn { writeReport() }
                gamepadChanged = false
            } else if translator.apply(event, to: &state) {
                gamepadChanged = true
            }
        }
        var failure: VirtualDeviceError?
        if let standIn, !standInEvents.isEmpty {
            do { try standIn.send(standInEvents, at: time) } catch { failure = error }
        }
        if !otherEvents.isEmpty {
            do { try others.send(otherEvents, at: time) } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }

    public func releaseAll(at time: MonotonicTime) throws(VirtualDeviceError) {
        translator.release(&state)
        state.touch = nil
        gamepadChanged = false
        var failure: VirtualDeviceError?
        if let standIn {
            do { try standIn.releaseAll(at: time) } catch { failure = error }
        } else if uhid != nil {
            writeReport()
        }
        do { try others.releaseAll(at: time) } catch { failure = failure ?? error }
        if let failure { throw failure }
    }

    /// Keeps the DualSense while the new config still has a DualSense gamepad (it is described
    /// by its report descriptor, whatever codes the config gives it) and fits the uinput devices
    /// of the other kinds (`VirtualDeviceSet.refit`); nil when the config has no gamepad or another
    /// identity, and then the caller makes new devices.
    public func fitted(to capabilities: Capabilities, gamepadIdentity: GamepadIdentity) throws(VirtualDeviceError) -> DeviceRefit? {
        guard gamepadIdentity == .dualsense, let pad = capabilities[.gamepad] else { return nil }
        _ = try DeviceLayout.description(for: .gamepad, capabilities: pad, gamepadIdentity: .dualsense)
        var rest = capabilities
        rest[.gamepad] = nil
        var refit = try others.refit(capabilities: rest)
        refit.fits[.gamepad] = .kept
        return refit
    }

    /// Takes the controller's motion and touch from `input`, the state of the packet received at
    /// `time`, and writes a report.
    public func controllerInput(_ input: ControllerInput, at time: MonotonicTime) {
        state.rotationRate = DualSenseMotion.degreesPerSecond(input.rotationRate)
        state.acceleration = DualSenseMotion.gravities(input.acceleration)
        state.touch = input.touch.map { DualSenseInputState.Touch(normalizedX: $0.x, normalizedY: $0.y) }
        state.sensorTime = UInt64(max(0, time.nanoseconds / 1000))
        if standIn == nil { writeReport() }
    }

    /// Takes the controller's battery level, in percent, for the next report.
    public func batteryChanged(percent: Int) {
        state.batteryPercent = UInt8(max(0, min(100, percent)))
    }

    private func writeReport() {
        guard let device = uhidDevice() else { return }
        encoder.encode(state)
        if !device.sendInput(encoder.report) { check(device) }
    }

    /// The uhid device, created on first use.
    private func uhidDevice() -> UHIDDevice? {
        if let uhid { return uhid }
        guard let descriptor = pendingDescriptor.take() else { return nil }
        let address = self.address
        let features = DualSenseFeatureReports(address: address)
        let device = UHIDMessage.Device(
            name: Self.deviceName, phys: "daydream-bridge/\(label)", uniq: address.uniq, bus: Self.bus,
            vendor: Self.sonyVendor, product: Self.dualSenseProduct, version: 0x0100,
            descriptor: DualSenseReportDescriptor.bytes)
        do {
            let created = try UHIDDevice(descriptor: descriptor, device: device) { features.report(id: $0) }
            created.problemHandler = { [weak self] message in self?.problemHandler?(message) }
            uhid = created
            noticeHandler?("made the DualSense \"\(Self.deviceName)\" on /dev/uhid, uniq \(created.device.uniq)")
            armDeadline()
            return created
        } catch {
            stopWatching()
            standIn(for: .createFailed(error))
            return nil
        }
    }

    /// Acts on what the device's last reads or writes showed: a refused write, a driver that
    /// bound or let go.
    private func check(_ device: UHIDDevice) {
        if let failure = device.writeFailure {
            deadline?.cancel()
            deadline = nil
            pacedDrain?.cancel()
            pacedDrain = nil
            stopWatching()
            uhid = nil  // UHID_DESTROY, and the descriptor closes
            standIn(for: .writeFailed(failure))
            return
        }
        guard device.started != bound else { return }
        bound = device.started
        guard bound else {
            armDeadline()
            return
        }
        deadline?.cancel()
        deadline = nil
        guard let replaced = standIn else { return }
        // The stand-in lets go of everything as it goes; the DualSense starts from the whole state.
        try? replaced.releaseAll(at: scheduler.now)
        standIn = nil
        noticeHandler?("hid-playstation took the DualSense: it replaces the uinput gamepad that stood in")
        writeReport()
    }

    /// Reads the next batch after `interval` in a flood of output reports, with the watch off;
    /// else with the watch on.
    private func pace(after drain: UHIDDevice.Drain) {
        let wasPaced = pacing.isPaced
        let now = scheduler.now
        pacedDrain?.cancel()
        pacedDrain = nil
        guard pacing.afterDrain(drain, at: now) else {
            if wasPaced { watch?.interest = .readable }
            return
        }
        if !wasPaced { watch?.interest = [] }
        pacedDrain = scheduler.schedule(at: now + UHIDDrainPacing.interval) { [weak self] in
            self?.pacedDrain = nil
            self?.readAvailable()
        }
    }

    private func armDeadline() {
        deadline?.cancel()
        deadline = scheduler.schedule(at: scheduler.now + Self.bindingDeadline) { [weak self] in
            guard let self else { return }
            deadline = nil
            guard let device = uhid, !device.started else { return }
            standIn(for: .noDriver(deadline: Self.bindingDeadline))
        }
    }

    /// Makes the uinput gamepad stand in and says why, once per silence.
    private func standIn(for silence: DualSenseSilence) {
        guard standIn == nil else { return }
        do {
            standIn = try makeStandIn(padCapabilities)
            standIn?.label = label
            problemHandler?(silence.message(standInError: nil))
        } catch {
            problemHandler?(silence.message(standInError: error))
        }
    }

    private func stopWatching() {
        watch?.cancel()
        watch = nil
        let handler = closeHandler
        closeHandler = nil
        handler?()
    }
}
