import Descriptors
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
/// fill the rest (`ControllerStateSink`). A report goes out at each gamepad `SYN_REPORT` and
/// with each packet's motion.
///
/// The uhid device is created when it is first written, with its address derived from the
/// label then (the controller's address: the daemon names a set before its first write), and
/// kept for the set's life: a controller that reconnects comes back into the same device.
public final class DualSenseDeviceSet: OutputSink, ControllerStateSink {
    /// The name the kernel gives the pad (its motion and touchpad nodes add " Motion Sensors",
    /// " Touchpad").
    public static let deviceName = "Daydream Controller DualSense"
    /// Sony's vendor id and the DualSense's product id, which hid-playstation binds.
    public static let sonyVendor: UInt32 = 0x054C
    public static let dualSenseProduct: UInt32 = 0x0CE6

    /// The bus the DualSense is on: Bluetooth, as the controller is. SDL's bundled hidapi (SDL
    /// 2.26) skips a USB-bus hidraw device with no USB parent, and only a Bluetooth DualSense
    /// reports its battery to SDL; the reports then carry the Bluetooth CRC.
    public static let bus = UHIDMessage.bluetoothBus

    public var label = "" {
        didSet { others?.label = label }
    }
    /// Told, with a sentence, about the uhid device's problems (each kind once).
    public var problemHandler: ((String) -> Void)?
    /// Called on the main thread when the set goes (with its devices): where whoever watches
    /// `fileDescriptor` stops watching it.
    public var closeHandler: (@MainActor () -> Void)?

    private var pendingDescriptor: FileDescriptor?
    private var uhid: UHIDDevice?
    private let others: VirtualDeviceSet?
    private var translator = DualSensePadTranslator()
    private var state = DualSenseInputState()
    private var encoder = DualSenseInputReportEncoder()
    private var gamepadChanged = false
    private var otherEvents: [OutputEvent] = []

    /// The DualSense on `uhid` (an open `/dev/uhid`, non-blocking) and uinput devices for the
    /// other kinds `capabilities` has.
    public init(capabilities: Capabilities, uhid: consuming FileDescriptor) throws(VirtualDeviceError) {
        pendingDescriptor = Optional(uhid)
        // The same check as the uinput pad it falls back to: exactly the DualSense's codes.
        _ = try DeviceLayout.description(
            for: .gamepad, capabilities: capabilities[.gamepad] ?? DeviceCapabilities(), gamepadIdentity: .dualsense)
        var rest = capabilities
        rest[.gamepad] = nil
        others = rest.deviceKinds.isEmpty ? nil : try VirtualDeviceSet(capabilities: rest)
        otherEvents.reserveCapacity(64)
    }

    deinit {
        // The daemon makes and drops its sinks on the main thread, the only place the reactor runs.
        if let closeHandler { MainActor.assumeIsolated { closeHandler() } }
    }

    /// The descriptor to watch for readability (then call `readAvailable()`).
    public var fileDescriptor: Int32 {
        uhid?.fileDescriptor ?? pendingDescriptor?.rawValue ?? -1
    }

    /// What the uhid device ignored or failed at, when it exists.
    public var counters: UHIDDevice.Counters? { uhid?.counters }

    /// The address the DualSense has (or will have, for the current label).
    public var address: DualSenseAddress { DualSenseAddress(controllerAddress: label) }

    /// Answers what the kernel asked for.
    public func readAvailable() {
        uhid?.readAvailable()
    }

    public var summary: [String] {
        let where_ = uhid == nil ? "on /dev/uhid when first written" : "on /dev/uhid"
        let pad = "gamepad: \"\(Self.deviceName)\" (054c:0ce6, uniq \(uhid?.device.uniq ?? address.uniq)) \(where_)"
        return [pad] + (others?.summary ?? [])
    }

    public func send(_ events: UnsafeBufferPointer<OutputEvent>, at time: MonotonicTime) throws(VirtualDeviceError) {
        otherEvents.removeAll(keepingCapacity: true)
        for event in events {
            guard event.device == .gamepad else {
                otherEvents.append(event)
                continue
            }
            if event.isSynReport {
                if gamepadChanged { writeReport() }
                gamepadChanged = false
            } else if translator.apply(event, to: &state) {
                gamepadChanged = true
            }
        }
        if let others, !otherEvents.isEmpty { try others.send(otherEvents, at: time) }
    }

    public func releaseAll(at time: MonotonicTime) throws(VirtualDeviceError) {
        translator.release(&state)
        state.touch = nil
        gamepadChanged = false
        if uhid != nil { writeReport() }
        try others?.releaseAll(at: time)
    }

    public func controllerInput(_ input: ControllerInput, at time: MonotonicTime) {
        state.rotationRate = DualSenseMotion.degreesPerSecond(input.rotationRate)
        state.acceleration = DualSenseMotion.gravities(input.acceleration)
        state.touch = input.touch.map { DualSenseInputState.Touch(normalizedX: $0.x, normalizedY: $0.y) }
        state.sensorTime = UInt64(max(0, time.nanoseconds / 1000))
        writeReport()
    }

    public func batteryChanged(percent: Int) {
        state.batteryPercent = UInt8(max(0, min(100, percent)))
    }

    private func writeReport() {
        guard let device = uhidDevice() else { return }
        encoder.encode(state)
        device.sendInput(encoder.report)
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
            return created
        } catch {
            problemHandler?("cannot create the DualSense on /dev/uhid: \(error); its gamepad stays silent")
            return nil
        }
    }
}
