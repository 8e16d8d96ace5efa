import BlueZ
import DBus
import DaydreamProtocol
import EventLoop
import Timebase

/// Finds, pairs, connects and streams Daydream controllers through BlueZ, on
/// a `Reactor` the caller runs. The daemon uses it directly with its own loop;
/// the library's `DDController.startDaydreamControllerDiscovery()` runs one
/// on the main dispatch queue.
///
/// One `ControllerFeed` per address for the manager's life: the same object
/// when a controller reconnects. Packets go straight from the notification
/// socket to the feed, which hands them, with connects, disconnects, battery
/// and device information, to every `ControllerConsumer` attached to it.
/// With `Options.makesControllerModels` (the default, for library users) each
/// feed's first consumer is a `DDController` model, whose `markConnected` /
/// `markDisconnected` report `DDControllerEvent`s (posted as notifications by
/// the `Daydream` module); a program that consumes the packets itself (the
/// daemon) turns the models off, so none runs and no long-press timer is set.
@MainActor
public final class DaydreamControllerManager {
    /// Which controllers the manager connects to.
    public enum ConnectionPolicy: Sendable {
        /// None: discovery and reporting only (`scan`).
        case none
        /// Controllers BlueZ has paired. Unpaired ones are paired only on an
        /// explicit request: `pair(address:)`, `pairNextController`, or
        /// `startDiscovery(pairingNewControllers: true)`.
        case pairedOnly
        /// Only the controllers this manager was asked to pair (`pair(address:)`,
        /// `pairNextController`): the `pair` command. Pairing one controller
        /// leaves every other alone; connecting one the user did not name is
        /// not what they asked for (and an attempt on one powered off can make
        /// BlueZ 5.66 drop the pairing under way).
        case requestedOnly
    }

    /// How the input packets arrive.
    public enum NotifyMethod: String, Sendable {
        /// A socket from `AcquireNotify`: one read per notification.
        case acquireNotify
        /// `StartNotify` and `PropertiesChanged` signals (the fallback).
        case startNotify
    }

    /// Settings.
    public struct Options: Sendable {
        /// Which controllers to connect.
        public var policy: ConnectionPolicy
        /// Power the adapter on when it is off.
        public var powersOnAdapter = true
        /// Keep discovering while a known controller is away, so it is found when it wakes.
        public var discoversWhileControllersAreAway = true
        /// The first reconnect delay; it doubles up to `maximumReconnectDelay`, and
        /// each delay is drawn at random between half and all of that.
        public var reconnectDelay = TimeSpan.milliseconds(500)
        /// The longest delay between reconnect attempts.
        public var maximumReconnectDelay = TimeSpan.seconds(30)
        /// How long a stream must hold before the reconnect delay starts again from
        /// `reconnectDelay`: a link that drops soon after each subscription keeps slowing down.
        public var stableStreamDuration = TimeSpan.seconds(10)
        /// How long without a notification interrupts a stream (the controller streams about
        /// 60 a second while awake): everything is released; notifications within the next
        /// such span resume it, else the link is dropped and made again. The same span
        /// decides after BlueZ reports `Connected=false` while the socket still delivers.
        public var silenceTimeout = TimeSpan.milliseconds(500)
        /// How long a connected controller may take to have its services resolved.
        public var resolveTimeout = TimeSpan.seconds(20)
        /// How long subscribing to the input notifications may take.
        public var subscribeTimeout = TimeSpan.seconds(10)
        /// How often the battery is read when it cannot notify.
        public var batteryPollInterval = TimeSpan.seconds(600)
        /// Give every controller a `DDController` model, fed by its `ControllerFeed` (the library's
        /// API: `knownControllers`, `controller(address:)`, the `controller...` handlers). Off, the
        /// manager only hands out feeds (`feedConnected`, `feed(address:)`).
        public var makesControllerModels = true
        /// Register the pairing agent as BlueZ's default agent too.
        public var requestsDefaultAgent = false
        /// How long a device being paired may take to connect and show its
        /// services (before it is bonded) until it is refused (and removed) as unverified.
        public var verificationTimeout = TimeSpan.seconds(20)
        /// How long `pairNextController` without an address watches after the
        /// first unpaired controller shows up, for others in range.
        public var candidateWindow = TimeSpan.seconds(2)
        /// How long after bluetoothd appears its adapters may take to show up
        /// before "no adapter" is reported (it takes its bus name first, then
        /// reads the adapters from the kernel).
        public var adapterGracePeriod = TimeSpan.seconds(2)

        /// How soon a StartDiscovery that BlueZ answered InProgress is sent again. bluetoothd
        /// answers so while the kernel is still busy with an earlier discovery, as one a crashed
        /// bluetoothd left running is until it times out (about 10 s).
        public var discoveryRetryDelay = TimeSpan.seconds(1)

        /// Defaults, with `policy`.
        public init(policy: ConnectionPolicy = .pairedOnly) { self.policy = policy }
    }

    /// Something the user should know, in the library's words: what is wrong, not which command
    /// cures it (that is the program's to say, in its own words: set `announceProblem`).
    public enum Problem: Equatable, Sendable, CustomStringConvertible {
        /// `org.bluez` has no owner.
        case bluetoothdMissing
        /// BlueZ runs but has no adapter.
        case noAdapter
        /// The adapter is off and could not (or may not) be powered on.
        case adapterOff(name: String, reason: String)
        /// The controller refused the stored keys.
        case staleBond(address: String)
        /// bluetoothd stopped just as a connection to the controller failed:
        /// BlueZ 5.66 crashes this way when the controller has lost its keys.
        case bluetoothdStoppedWhileConnecting(address: String)
        /// Pairing failed for another reason.
        case pairingFailed(address: String, reason: String)
        /// A paired device calling itself a Daydream controller showed a HID service (0x1812) on a
        /// connection: it was blocked and removed from BlueZ, bond and all.
        case lookAlikeRemoved(address: String, reason: String)
        /// The D-Bus system bus connection is gone (dbus-daemon stopped): this manager reaches BlueZ no
        /// more, and a new one on a new connection is needed (the daemon makes one when the bus is back).
        case busLost

        public var description: String {
            switch self {
            case .bluetoothdMissing:
                "BlueZ is not running (waiting for it)"
            case .noAdapter:
                "no Bluetooth adapter (waiting for one)"
            case .adapterOff(let name, let reason):
                "adapter \(name) is powered off or blocked by rfkill (\(reason)) (waiting for it)"
            case .staleBond(let address):
                "\(address) refused the stored pairing (stale bond): it must be removed from BlueZ and paired again"
            case .bluetoothdStoppedWhileConnecting(let address):
                "bluetoothd stopped while connecting to \(address); if this repeats, the controller may have lost "
                    + "its pairing (a reset, or paired elsewhere) and must be removed from BlueZ and paired again"
            case .pairingFailed(let address, let reason):
                "pairing \(address) failed: \(reason)"
            case .lookAlikeRemoved(let address, let reason):
                "\(address) is not a Daydream controller: \(reason); blocked it and removed it from BlueZ"
            case .busLost:
                "the D-Bus system bus went away (dbus-daemon stopped): BlueZ cannot be reached on this connection"
            }
        }
    }

    /// The loop everything runs on.
    public let reactor: Reactor
    /// The BlueZ client (object cache and calls).
    public let client: BlueZClient
    /// The settings given at creation.
    public let options: Options
    /// Where the manager's log lines go (the program's choice, given at creation).
    public let log: LogSink
    /// The pairing agent (registered when pairing is possible).
    public let agent: PairingAgent

    /// Called once per controller, when the manager first makes its `DDController`
    /// (before it connects): the place to attach handlers that must see every connect.
    /// Only with `Options.makesControllerModels`, as are the next two.
    public var controllerAdded: (@MainActor (DDController) -> Void)?
    /// Called when a controller connects and streams (after `markConnected`).
    public var controllerConnected: (@MainActor (DDController) -> Void)?
    /// Called when a controller disconnects (after `markDisconnected`).
    public var controllerDisconnected: (@MainActor (DDController) -> Void)?
    /// Called when a controller connects and streams, after its feed's consumers heard it: the
    /// place to attach consumers (they stay attached across reconnects).
    public var feedConnected: (@MainActor (ControllerFeed) -> Void)?
    /// Called when discovery sees a Daydream controller or its RSSI changes.
    public var controllerSighted: (@MainActor (DeviceInfo) -> Void)?
    /// Called with every problem, again when it is reported again.
    public var problemHandler: (@MainActor (Problem) -> Void)?
    /// Says a new problem once (not again until another one, or until it cleared). Without it the
    /// manager logs the problem's `description` as a warning; a program with its own words for
    /// the cure (the command to run) sets it.
    public var announceProblem: (@MainActor (Problem) -> Void)?

    /// Whether `start()` was called (and not `stop()`).
    public private(set) var isRunning = false
    /// Whether the caller asked for discovery.
    public private(set) var wantsDiscovery = false
    /// Whether the adapter discovers for this manager now (BlueZ said `StartDiscovery` succeeded).
    public var isDiscovering: Bool { discovery.state == .on }
    /// Whether unpaired controllers seen during this discovery are paired
    /// (`startDiscovery(pairingNewControllers: true)`); off again on `stopDiscovery()`.
    public private(set) var pairsNewControllers = false

    var links: [String: ControllerLink] = [:]
    /// The pairings under way, by address: their links must not connect yet.
    var pairingSessions: [String: PairingSession] = [:]
    /// Addresses refused as look-alikes: never paired again without an explicit `pair(address:)`.
    var refusedAddresses: Set<String> = []
    /// Addresses `pair(address:)` was asked for: all that `.requestedOnly` connects.
    var requestedAddresses: Set<String> = []
    /// Addresses being blocked and removed now: left alone meanwhile.
    var addressesBeingRefused: Set<String> = []
    private var token: ObserverToken?
    /// Discovery's state; moved only by `apply(_: DiscoveryEvent)`.
    private var discovery = StateMachine(DiscoveryState.off, label: "discovery", transition: transition(from:on:))
    /// The deadline of discovery's state (the retry after a busy answer).
    private var discoveryTimer: ScheduledTimer?
    /// The adapter's state; moved only by `apply(_: AdapterEvent)`.
    private var adapterState = StateMachine(AdapterState.unknown, label: "adapter", transition: transition(from:on:))
    /// The deadline of the adapter's state (the end of the grace for a missing adapter).
    private var adapterTimer: ScheduledTimer?
    /// The problem last reported: a new one is announced, the same one again is not.
    private var lastProblem: Problem?
    /// Adapters the manager powered on once; an adapter the user turns off later stays off.
    private var poweredOnce: Set<String> = []

    /// A manager on `connection`, running on `reactor`, logging to `log`.
    public init(reactor: Reactor, connection: BusConnection, options: Options = Options(), log: LogSink = Log.sink) {
        self.reactor = reactor
        self.options = options
        self.log = log
        client = BlueZClient(connection: connection)
        agent = PairingAgent(client: client)
        connection.disconnectedHandler = { [weak self] in self?.busLost() }
    }

    private func busLost() {
        apply(DiscoveryEvent.reset)
        for link in links.values { link.serviceVanished() }
        report(.busLost)
    }

    /// A manager on the system bus (`$DAYDREAM_DBUS_ADDRESS` overrides it for tests).
    public convenience init(reactor: Reactor, options: Options = Options(), log: LogSink = Log.sink) throws(DBusError) {
        self.init(reactor: reactor, connection: try BusConnection.system(reactor: reactor), options: options, log: log)
    }

    // MARK: Public API

    /// Every controller model the manager made, by address (connected or not).
    public var knownControllers: [DDController] {
        links.keys.sorted().compactMap { links[$0]?.model }
    }

    /// The controllers connected and streaming now.
    public var connectedControllers: [DDController] {
        knownControllers.filter(\.isConnected)
    }

    /// The model of the controller with `address`, if known (and models are made).
    public func controller(address: String) -> DDController? {
        links[address.uppercased()]?.model
    }

    /// The feed of the controller with `address`, if known.
    public func feed(address: String) -> ControllerFeed? {
        links[address.uppercased()]?.feed
    }

    /// How a connected controller's packets arrive.
    public func notifyMethod(of controller: DDController) -> NotifyMethod? {
        links[controller.address]?.notifyMethod
    }

    /// How the packets of a connected controller's feed arrive.
    public func notifyMethod(of feed: ControllerFeed) -> NotifyMethod? {
        links[feed.address]?.notifyMethod
    }

    /// Starts following BlueZ and connecting to controllers (per the policy).
    public func start() {
        guard !isRunning else { return }
        isRunning = true
        token = client.observe { [weak self] event in self?.handle(event) }
        client.start()
        if client.isReady { serviceAppeared() }
    }

    /// Stops discovery and reconnecting; disconnects controllers when `disconnect`.
    public func stop(disconnect: Bool = false) {
        guard isRunning else { return }
        stopDiscovery()
        isRunning = false
        apply(DiscoveryEvent.managerStopped)
        apply(AdapterEvent.managerStopped)
        for link in links.values { link.shutDown(disconnect: disconnect) }
        token?.cancel()
        token = nil
        agent.unregister()
    }

    /// Starts looking for controllers (SetDiscoveryFilter UUIDs=[FE55], Transport=le; StartDiscovery).
    ///
    /// With `pairingNewControllers`, every unpaired device seen that calls
    /// itself a Daydream controller is looked at and paired (Just Works) if its
    /// services check out (`pair(address:)`), until `stopDiscovery()`. Its name and FE55 can be
    /// spoofed: use it only when the user asked to pair a controller now.
    public func startDiscovery(pairingNewControllers: Bool = false) {
        wantsDiscovery = true
        pairsNewControllers = pairingNewControllers
        updateDiscovery()
        if pairingNewControllers {
            for device in client.cache.devices where device.isDaydreamController { deviceChanged(device, sighting: false) }
        }
    }

    /// Stops looking for new controllers and pairing them (discovery continues
    /// while a known controller is away, per the options, but pairs nothing).
    public func stopDiscovery() {
        wantsDiscovery = false
        pairsNewControllers = false
        updateDiscovery()
    }

    // MARK: For links

    func mayConnect(_ device: DeviceInfo) -> Bool {
        let address = device.address.uppercased()
        guard isRunning, device.isDaydreamController, pairingSessions[address] == nil,
              !addressesBeingRefused.contains(address) else { return false }
        switch options.policy {
        case .none: return false
        case .pairedOnly: return device.isPaired || mayPairUnasked(device)
        case .requestedOnly: return requestedAddresses.contains(address)
        }
    }

    /// Whether an unpaired `device` may be paired without an explicit
    /// `pair(address:)`: only during `startDiscovery(pairingNewControllers: true)`,
    /// and never one refused before.
    func mayPairUnasked(_ device: DeviceInfo) -> Bool {
        wantsDiscovery && pairsNewControllers && !refusedAddresses.contains(device.address.uppercased())
            && ControllerVerification.refusalBeforePairing(device) == nil
    }

    func linkConnected(_ link: ControllerLink) {
        if let model = link.model { controllerConnected?(model) }
        feedConnected?(link.feed)
        updateDiscovery()
    }

    func linkDisconnected(_ link: ControllerLink) {
        if let model = link.model { controllerDisconnected?(model) }
        updateDiscovery()
    }

    func report(_ problem: Problem, error: DBusError? = nil) {
        if problem != lastProblem {
            if let error { log.debug("BlueZ said: \(error)") }
            if let announceProblem { announceProblem(problem) } else { log.warning(problem.description) }
        }
        lastProblem = problem
        problemHandler?(problem)
    }

    func link(for device: DeviceInfo) -> ControllerLink {
        let address = device.address.uppercased()
        if let link = links[address] { return link }
        let family = device.controllerFamily ?? .daydream
        let model = options.makesControllerModels ? DDController(address: address, family: family.id, scheduler: reactor) : nil
        let link = ControllerLink(address: address, family: family, model: model, manager: self)
        links[address] = link
        if let model { controllerAdded?(model) }
        return link
    }

    // MARK: BlueZ events

    private func handle(_ event: BlueZClient.Event) {
        switch event {
        case .serviceAppeared:
            serviceAppeared()
        case .serviceVanished:
            apply(DiscoveryEvent.reset)
            apply(AdapterEvent.serviceVanished)
            poweredOnce.removeAll()
            agent.serviceVanished()
            for link in links.values { link.serviceVanished() }
            report(.bluetoothdMissing)
        case .interfacesAdded(let path, let interfaces):
            if interfaces.contains(BlueZNames.adapter) { checkAdapter() }
            if interfaces.contains(BlueZNames.device), let device = client.cache.device(at: path) { deviceChanged(device, sighting: true) }
            if interfaces.contains(BlueZNames.battery) {
                links.values.first { $0.devicePath == path }?.batteryPluginChanged()
            }
            if interfaces.contains(BlueZNames.gattService),
               let device = client.cache.devices.first(where: { path.hasPrefix($0.path + "/") }) {
                _ = refuseIfLookAlike(device)
            }
            if interfaces.contains(BlueZNames.gattCharacteristic) {
                links.values.first { $0.devicePath.map { path.hasPrefix($0 + "/") } ?? false }?.gattChanged()
            }
        case .interfacesRemoved(let path, let interfaces):
            if interfaces.contains(BlueZNames.device) {
                links.values.first { $0.devicePath == path }?.deviceVanished()
                updateDiscovery()
            }
            if interfaces.contains(BlueZNames.adapter) {
                apply(DiscoveryEvent.reset)
                poweredOnce.remove(path)
                checkAdapter()
            }
        case .propertiesChanged(let path, let interface, let names):
            if interface == BlueZNames.adapter {
                if names.contains("Discovering"), client.cache.properties(path, interface)?["Discovering"]?.boolean == false {
                    apply(DiscoveryEvent.reset)
                }
                checkAdapter()
            } else if interface == BlueZNames.battery {
                links.values.first { $0.devicePath == path }?.batteryPluginChanged()
            } else if interface == BlueZNames.device, let device = client.cache.device(at: path) {
                deviceChanged(device, sighting: names.contains("RSSI") || names.contains("ManufacturerData"))
            } else if interface == BlueZNames.gattCharacteristic, names.contains("NotifyAcquired") {
                links.values.first { $0.devicePath.map { path.hasPrefix($0 + "/") } ?? false }?.notifyAcquiredChanged(at: path)
            }
        }
    }

    private func serviceAppeared() {
        lastProblem = nil
        apply(AdapterEvent.serviceAppeared(graceEnds: reactor.now + options.adapterGracePeriod))
        checkAdapter()
        for device in client.cache.devices where device.isDaydreamController {
            deviceChanged(device, sighting: false)
        }
    }

    func deviceChanged(_ device: DeviceInfo, sighting: Bool) {
        guard device.isDaydreamController, !refuseIfLookAlike(device) else { return }
        if sighting || device.rssi != nil { controllerSighted?(device) }
        guard options.policy != .none else { return }
        let known = links[device.address.uppercased()] != nil
        guard known || mayConnect(device) else { return }
        let link = link(for: device)
        if sighting { link.sighted() }
        link.update(device)
        updateDiscovery()
    }

    // MARK: Adapter and discovery

    private var adapter: AdapterInfo? { client.cache.adapters.first }

    private func checkAdapter() {
        guard isRunning, client.isReady else { return }
        guard let adapter else {
            // Within the grace bluetoothd just appeared, the state's deadline looks again.
            apply(AdapterEvent.adapterMissing(at: reactor.now))
            if adapterState.state == .missing { report(.noAdapter) }
            return
        }
        if !adapter.isPowered {
            let poweringOn = adapterState.state == .poweringOn
            if adapter.powerState == "off-blocked" {
                apply(AdapterEvent.adapterOff)
                report(.adapterOff(name: adapter.name, reason: "rfkill blocks it"))
            } else if options.powersOnAdapter && !poweringOn && !poweredOnce.contains(adapter.path) {
                apply(AdapterEvent.powerOnSent)
                poweredOnce.insert(adapter.path)
                log.info("powering on adapter \(adapter.name)")
                client.powerOn(adapter: adapter.path) { [weak self] result in
                    guard let self else { return }
                    apply(AdapterEvent.powerOnAnswered)
                    if case .failure(let error) = result {
                        report(.adapterOff(name: adapter.name, reason: error.description), error: error)
                    }
                }
            } else if !poweringOn {
                apply(AdapterEvent.adapterOff)
                report(.adapterOff(name: adapter.name, reason: "it is off"))
            }
            return
        }
        apply(AdapterEvent.adapterPowered)
        if lastProblem == .noAdapter || { if case .adapterOff = lastProblem { true } else { false } }() {
            log.info("adapter \(adapter.name) is ready")
            lastProblem = nil
        }
        updateDiscovery()
        for device in client.cache.devices where device.isDaydreamController {
            if let link = links[device.address.uppercased()] { link.update(device) }
        }
    }

    /// The only place the adapter's state changes: a new state gets its own deadline.
    private func apply(_ event: AdapterEvent) {
        let previous = adapterState.state
        guard adapterState.apply(event, log: log), adapterState.state != previous else { return }
        adapterTimer?.cancel()
        adapterTimer = nil
        if case .awaited(let graceEnds) = adapterState.state {
            adapterTimer = reactor.schedule(at: graceEnds) { [weak self] in
                guard let self else { return }
                adapterTimer = nil
                checkAdapter()
            }
        }
    }

    private var controllersAway: Bool {
        options.discoversWhileControllersAreAway && links.values.contains { $0.state.isIdle && !$0.feed.isConnected }
    }

    private func updateDiscovery() {
        guard client.isReady, let adapter, adapter.isPowered else { return }
        let wanted = isRunning && (wantsDiscovery || controllersAway)
        switch discovery.state {
        case .off, .busy:
            if wanted { startDiscovery(on: adapter) }
        case .starting:
            break
        case .on:
            guard !wanted else { return }
            apply(DiscoveryEvent.stop)
            client.stopDiscovery(adapter: adapter.path) { [log] result in
                if case .failure(let error) = result { log.debug("StopDiscovery failed: \(error)") }
            }
        }
    }

    private func startDiscovery(on adapter: AdapterInfo) {
        apply(DiscoveryEvent.start)
        client.setDaydreamDiscoveryFilter(adapter: adapter.path) { [weak self] result in
            guard let self else { return }
            if case .failure(let error) = result {
                // The adapter going away mid-call is reported by the object cache.
                if error.meansTargetIsGone { log.debug("SetDiscoveryFilter: \(error)") } else { log.warning("SetDiscoveryFilter failed: \(error)") }
            }
            client.startDiscovery(adapter: adapter.path) { [weak self] result in
                guard let self else { return }
                switch result {
                case .success:
                    apply(DiscoveryEvent.started)
                    log.debug("discovery started on \(adapter.name)")
                    updateDiscovery()
                case .failure(let error) where error.meansTargetIsGone:
                    apply(DiscoveryEvent.failed)
                    log.debug("StartDiscovery on \(adapter.name): \(error)")
                case .failure(let error) where error.shortName == "InProgress":
                    // The kernel is busy with an earlier discovery; nothing else would ask again.
                    log.debug("StartDiscovery on \(adapter.name): \(error); again in \(options.discoveryRetryDelay)")
                    apply(DiscoveryEvent.busy(retryAt: reactor.now + options.discoveryRetryDelay))
                case .failure(let error):
                    apply(DiscoveryEvent.failed)
                    log.warning("StartDiscovery on \(adapter.name) failed: \(error)")
                }
            }
        }
    }

    /// The only place discovery's state changes: a new state gets its own deadline.
    private func apply(_ event: DiscoveryEvent) {
        let previous = discovery.state
        guard discovery.apply(event, log: log), discovery.state != previous else { return }
        discoveryTimer?.cancel()
        discoveryTimer = nil
        if case .busy(let retryAt) = discovery.state {
            // StartDiscovery again then, if it is still wanted.
            discoveryTimer = reactor.schedule(at: retryAt) { [weak self] in
                guard let self else { return }
                discoveryTimer = nil
                apply(DiscoveryEvent.retryDue)
                updateDiscovery()
            }
        }
    }
}
