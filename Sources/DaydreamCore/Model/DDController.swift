import DaydreamProtocol
import Timebase

/// One controller (a Daydream View controller, or a sibling of another `family`): its buttons,
/// touchpad, motion, battery and device information, updated from the packets it sends.
///
/// The shape follows the iOS Daydream library. Everything runs on the main
/// thread; handlers are called there. A transport (BlueZ in the daemon, a
/// recording in `replay`, a test) feeds it with `receive(_:at:)` (a notification's bytes
/// or a decoded packet), and reports the link with `markConnected()` and
/// `markDisconnected()`; as a `ControllerConsumer` it is fed by a `ControllerFeed`, which
/// `DaydreamControllerManager` does for every controller when it makes models. Connects,
/// disconnects and battery readings are also reported to `observeEvents(_:)`'s observers
/// (the `Daydream` module posts them as notifications).
@MainActor
public final class DDController {
    /// The Bluetooth address, `AA:BB:CC:DD:EE:FF`; the key that identifies a controller.
    public let address: String
    /// Which kind of controller it is (`.daydream`, `.gearVR`, `.oculusGo`).
    public let family: ControllerFamilyID

    /// The circular touchpad.
    public let touchpad: DDControllerTouchpad
    /// The touchpad press.
    public let clickButton: DDControllerButton
    public let appButton: DDControllerButton
    public let homeButton: DDControllerButton
    public let volumeUpButton: DDControllerButton
    public let volumeDownButton: DDControllerButton
    /// The trigger (Gear VR, Oculus Go; never pressed on a Daydream).
    public let triggerButton: DDControllerButton
    /// The back button (Gear VR, Oculus Go; never pressed on a Daydream).
    public let backButton: DDControllerButton
    /// Orientation, rotation rate and acceleration.
    public let motion: DDControllerMotion

    /// Every button in `DaydreamButtons` bit order: click, home, app, volume down, volume up,
    /// trigger, back (a family's packets press only those it has).
    public var buttons: [DDControllerButton] {
        [clickButton, homeButton, appButton, volumeDownButton, volumeUpButton, triggerButton, backButton]
    }

    /// How long a press must last to call a button's `longPressHandler` (1 s by default).
    public var longPressDuration: TimeSpan {
        get { homeButton.longPressDuration }
        set { for button in buttons { button.longPressDuration = newValue } }
    }

    /// Battery level from 0 to 1, once read.
    public internal(set) var batteryLevel: Float?
    /// Device Information strings, once read.
    public internal(set) var manufacturer: String?
    public internal(set) var modelNumber: String?
    public internal(set) var serialNumber: String?
    public internal(set) var hardwareVersion: String?
    public internal(set) var firmwareVersion: String?
    public internal(set) var softwareVersion: String?

    /// Whether the controller is connected and streaming.
    public private(set) var isConnected = false
    /// Packet counters since this object was made.
    public var statistics: DDControllerStatistics { counter.statistics }
    /// The newest packet, if any.
    public var lastPacket: DaydreamPacket? { newestPacket }

    /// Called with every decoded packet before the elements update: the bridge's fast path.
    public var packetHandler: (@MainActor (DDController, DaydreamPacket, MonotonicTime) -> Void)? {
        get { fastPath }
        set { fastPath = newValue }
    }
    /// Called when the link comes up (`true`) or goes down (`false`).
    public var connectionChangedHandler: (@MainActor (DDController, Bool) -> Void)?

    /// Set by the transport: reads the battery level, then calls `setBatteryLevel(percent:)`.
    public var batteryLevelReader: (@MainActor (DDController) -> Void)?

    // Private storage behind the public accessors of what every packet touches: with every
    // access inside this module, the optimiser can prove they never overlap and drop the
    // run-time exclusivity checks that public stored properties pay on every packet.
    private var counter = PacketCounter()
    private var newestPacket: DaydreamPacket?
    private var fastPath: (@MainActor (DDController, DaydreamPacket, MonotonicTime) -> Void)?

    /// A controller of `family` with the given address, whose long-press timers run on `scheduler`.
    public init(address: String, family: ControllerFamilyID = .daydream, scheduler: any DeadlineScheduler) {
        self.address = address
        self.family = family
        triggerButton = DDControllerButton(kind: .trigger, scheduler: scheduler)
        backButton = DDControllerButton(kind: .back, scheduler: scheduler)
        clickButton = DDControllerButton(kind: .click, scheduler: scheduler)
        appButton = DDControllerButton(kind: .app, scheduler: scheduler)
        homeButton = DDControllerButton(kind: .home, scheduler: scheduler)
        volumeUpButton = DDControllerButton(kind: .volumeUp, scheduler: scheduler)
        volumeDownButton = DDControllerButton(kind: .volumeDown, scheduler: scheduler)
        touchpad = DDControllerTouchpad(button: clickButton)
        motion = DDControllerMotion()
    }

    /// Decodes one notification received at `time` and applies it. A notification
    /// that is not a packet is counted in `statistics.malformed` and dropped.
    public func receive(_ bytes: UnsafeRawBufferPointer, at time: MonotonicTime) {
        do {
            receive(try family.family.decode(bytes), at: time)
        } catch {
            countMalformed()
        }
    }

    /// Counts a notification that was not a packet.
    func countMalformed() {
        counter.countMalformed()
    }

    /// Applies one decoded packet received at `time` (what its `ControllerFeed` hands it).
    public func receive(_ packet: DaydreamPacket, at time: MonotonicTime) {
        // A packet of several samples arrives once a sample: counted once, with its last.
        if packet.isLatestSample { counter.count(sequence: packet.sequence) }
        newestPacket = packet
        fastPath?(self, packet, time)
        let pressed = packet.buttons
        clickButton.update(pressed: pressed.contains(.click), at: time)
        homeButton.update(pressed: pressed.contains(.home), at: time)
        appButton.update(pressed: pressed.contains(.app), at: time)
        volumeDownButton.update(pressed: pressed.contains(.volumeDown), at: time)
        volumeUpButton.update(pressed: pressed.contains(.volumeUp), at: time)
        triggerButton.update(pressed: pressed.contains(.trigger), at: time)
        backButton.update(pressed: pressed.contains(.back), at: time)
        touchpad.update(packet.touchPoint)
        motion.update(from: packet)
    }

    /// Records that the link is up, then reports `.didConnect` (`.DDControllerDidConnect`).
    public func markConnected() {
        guard !isConnected else { return }
        isConnected = true
        counter.restartSequence()
        connectionChangedHandler?(self, true)
        ControllerEventObservers.shared.report(.didConnect, of: self)
    }

    /// Records that the link is down: every button that was down is released
    /// (its handlers called), the finger lifts, and `.didDisconnect` (`.DDControllerDidDisconnect`)
    /// is reported.
    public func markDisconnected() {
        guard isConnected else { return }
        isConnected = false
        counter.restartSequence()
        for button in buttons { button.release() }
        touchpad.update(nil)
        connectionChangedHandler?(self, false)
        ControllerEventObservers.shared.report(.didDisconnect, of: self)
    }

    /// Asks the transport to read the battery level; `.didUpdateBatteryLevel`
    /// (`.DDControllerDidUpdateBatteryLevel`) is reported when it arrives.
    public func updateBatteryLevel() {
        batteryLevelReader?(self)
    }

    /// Stores a battery level read from the Battery Service (percent, 0...100)
    /// and reports `.didUpdateBatteryLevel` (`.DDControllerDidUpdateBatteryLevel`).
    public func setBatteryLevel(percent: Int) {
        batteryLevel = Float(min(max(percent, 0), 100)) / 100
        ControllerEventObservers.shared.report(.didUpdateBatteryLevel, of: self)
    }

    /// Stores the Device Information strings that were read; nil leaves a value as it is.
    public func setDeviceInformation(
        manufacturer: String? = nil, modelNumber: String? = nil, serialNumber: String? = nil,
        hardwareVersion: String? = nil, firmwareVersion: String? = nil, softwareVersion: String? = nil
    ) {
        if let manufacturer { self.manufacturer = manufacturer }
        if let modelNumber { self.modelNumber = modelNumber }
        if let serialNumber { self.serialNumber = serialNumber }
        if let hardwareVersion { self.hardwareVersion = hardwareVersion }
        if let firmwareVersion { self.firmwareVersion = firmwareVersion }
        if let softwareVersion { self.softwareVersion = softwareVersion }
    }
}

/// Packet counters for one controller.
public struct DDControllerStatistics: Hashable, Sendable {
    /// Packets decoded and applied.
    public var received = 0
    /// Packets missing from the sequence (gaps in the 5-bit counter).
    public var lost = 0
    /// Notifications that were not 20-byte packets, dropped.
    public var malformed = 0

    public init() {}
}
