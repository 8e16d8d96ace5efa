#if canImport(Glibc)
import Glibc
#endif
import BridgeConfig
import DSUServer
import DaydreamCore
import DaydreamProtocol
import Descriptors
import EventLoop
import Mapping
import SystemIntegration
import Timebase
import VirtualDevice

/// The daemon: each controller gets its own mapping session and its own virtual devices.
///
/// Its parts, one job each: `ControllerRegistry` (the controllers, their devices and sessions),
/// `ProfilePolicy` (which profile, by hand or by focus), `RunningConfig` (the config and its
/// reloads), `GyroCalibrations` (the biases). Every request, whichever door brought it (signals,
/// the control socket, D-Bus), is a `BridgeCommand` carried out by `perform(_:)`.
///
/// Devices: the first set is made at start, before any controller connects, so games and Steam
/// see a pad early; the first controller takes it. Each further controller gets a new set when it
/// is first seen. Every set is kept until exit, across Bluetooth drops, and bound to its controller's
/// address, so a controller that comes back gets its own devices again.
///
/// No stuck input: a disconnect, a profile switch, a reload and exit each release everything
/// (and write the `SYN_REPORT`s) before anything else happens.
@MainActor
public final class BridgeDaemon {
    /// Makes one controller's devices for a configuration; `label` names them in the log.
    public typealias OutputFactory = @MainActor (_ configuration: MappingConfiguration, _ label: String) throws(VirtualDeviceError) -> ControllerDevices

    let reactor: Reactor
    private let makeOutput: OutputFactory
    private let running: RunningConfig
    let registry: ControllerRegistry
    let policy: ProfilePolicy
    private var notifier: ServiceNotifier?
    private var control: ControlServer?
    private var stopped = false
    /// The last problem a controller source reported (BlueZ missing, adapter off), shown in the
    /// status until a controller connects.
    private(set) var problem: String?

    /// The DSU server beside the devices, when `run --dsu` or `[dsu]` started one: the control
    /// socket's `dsu` answers with its clients.
    public var dsuServer: DSUServer?
    /// The opentrack output, when `[opentrack]` started one: told when its controller recentres.
    public var headTracker: OpenTrackSender?

    /// What pairs and forgets controllers (the Bluetooth source); none: `pair` and `forget` are refused.
    public weak var bluetooth: BluetoothPairing?
    /// The pairing under way, if any: one at a time.
    var pairing: PairingRun?

    /// What the daemon shows, told each change as it happens: `status`, systemd, the D-Bus API
    /// and `watch` read it and hear its announcements.
    public let state = BridgeState()
    private var statusObservation: Observation?

    /// The application a desktop said has the focus (`follow-focus`, `SetFocusedApplication`), if any.
    public var focusedApplication: FocusedApplication? { policy.focused }
    /// Where measured gyro biases are kept (none: measured ones apply until exit only); set
    /// before controllers arrive.
    public var biasStore: GyroBiasStore? {
        get { calibrations.store }
        set { calibrations = GyroCalibrations(store: newValue) }
    }
    private(set) var calibrations = GyroCalibrations(store: nil)
    /// The lending and taking back that profiles with `lend = true` call for.
    var profileLending = ProfileLending()

    /// The configuration running now.
    public var configuration: MappingConfiguration { running.configuration }

    /// A daemon with `loaded` as its config; makes the first set of devices now. Throws when they
    /// cannot be made (no `/dev/uinput`, no permission): the caller prints the one-line hint.
    public init(loaded: LoadedConfig, profile: String?, reactor: Reactor, makeOutput: @escaping OutputFactory) throws(VirtualDeviceError) {
        self.reactor = reactor
        self.makeOutput = makeOutput
        running = RunningConfig(loaded, reactor: reactor)
        let first = try makeOutput(loaded.configuration, "controller 1")
        first.sink.label = "controller 1"
        for line in first.sink.summary { Logger.info("created \(line)") }
        registry = ControllerRegistry(first: first, watch: ControllerWatch(reactor: reactor))
        policy = ProfilePolicy(registry: registry, profile: profile)
        state.statistics = { [weak registry] address in registry?.feed(of: address)?.statistics ?? DDControllerStatistics() }
        registry.watch.follow(state)
        recordBridgeState()
        statusObservation = state.observe { [weak self] change in
            guard let self, Self.changesStatusLine(change) else { return }
            let line = statusLine
            notify { try $0.status(line) }
        }
        registry.watch.onIdle = { [weak registry] in registry?.setTapping(false) }
        running.replace = { [weak self] new, old in self?.replaceConfiguration(with: new.configuration, from: old) }
        running.read = { [weak self] outcome in self?.recordReload(outcome) }
        running.reading = { [weak self] started in
            guard let self else { return }
            notify { started ? try $0.reloading(status: "reloading the config") : try $0.ready(status: self.statusLine) }
        }
    }

    // MARK: Start and stop

    /// Starts the signals, the config watcher (for a config file), the control socket at
    /// `controlSocket` (none when nil) and systemd notification. Problems with the watcher or the
    /// socket are logged; the daemon runs without them.
    public func start(controlSocket: String?) throws(SystemCallError) {
        try DaemonSignals.install(on: reactor, for: self)
        running.startWatching()
        if let controlSocket {
            do {
                control = try ControlServer(path: controlSocket, reactor: reactor) { [weak self] request in
                    self.map { ControlDoor(daemon: $0).answer(request) } ?? .error(BridgeRefusal.stopping.message)
                } streamHandler: { [weak self] stream in
                    guard let self else { return stream.finish() }
                    ControlDoor(daemon: self).answer(stream)
                }
                Logger.debug("control socket at \(controlSocket)")
            } catch {
                Logger.warning("no control socket, so 'daydream-bridge profile' cannot reach this daemon: \(error)")
            }
        }
        do {
            notifier = try ServiceNotifier.fromEnvironment()
        } catch {
            Logger.warning("cannot talk to systemd: \(error)")
        }
        notify { try $0.ready(status: statusLine) }
        Logger.info("running with \(running.description); \(statusLine)")
    }

    /// Releases everything, writes it, destroys the devices and stops the loop. Safe to call twice.
    public func shutdown() {
        guard !stopped else { return }
        stopped = true
        statusObservation = nil
        notify { try $0.stopping(status: "stopping") }
        registry.stopAll(at: reactor.now) // the last references: the devices are destroyed here
        control?.close()
        control = nil
        running.stopWatching()
        reactor.stop()
    }

    // MARK: Commands

    /// Carries out `command`, whichever door brought it; the lines say what was done.
    @discardableResult
    public func perform(_ command: BridgeCommand) -> BridgeOutcome {
        guard !stopped else { return .failure(.stopping) }
        let now = reactor.now
        switch command {
        case .switchProfile(let name, let address):
            return statusAfter(policy.switchProfile(to: name, address: address, in: configuration, at: now))
        case .nextProfile(let address):
            return statusAfter(policy.cycleProfile(address: address, in: configuration, at: now))
        case .reload:
            switch running.reload() {
            case .unchanged: return .success(["config unchanged"])
            case .reloaded: return .success(["config reloaded; profiles: \(ConfigurationChoice.profileList(configuration))"])
            case .kept(let reasons): return .failure(.invalidConfig(reasons))
            }
        case .focusChanged(let application):
            policy.focusChanged(to: application, in: configuration, at: now)
            return statusAfter(.success(()))
        case .recenter(let address):
            return registry.sessions(for: address).map { targets in
                for target in targets { target.session.recenter() }
                return statusLines
            }
        case .calibrateGyro(let address):
            return startCalibration(address: address).map { $0.map { "\($0): measuring the gyro's bias" } }
        case .lend(let address):
            return lend(address: address)
        case .reclaim(let address):
            return reclaim(address: address)
        case .pair(let address):
            // Its steps are logged; the control socket's `pair` streams them.
            return preparePairing(address: address).map { run in
                start(run) { _ in }
                return PairingStep.looking(address: run.address).lines
            }
        case .forget(let address):
            return forget(address: address) { _ in }.map { ["forgetting \($0)"] }
        }
    }

    /// The status lines after a change, or the refusal.
    private func statusAfter(_ result: Result<Void, BridgeRefusal>) -> BridgeOutcome {
        result.map { _ in
            settleProfileLending()
            recordBridgeState()
            return statusLines
        }
    }

    /// Starts measuring the gyro's bias of every connected controller (or the one at `address`),
    /// the controller held still; the addresses of the ones being measured.
    func startCalibration(address: String?) -> Result<[String], BridgeRefusal> {
        registry.sessions(for: address).flatMap { targets in
            let connected = targets.filter { registry.isConnected($0.address) }
            guard !connected.isEmpty else {
                return .failure(address.map { .notConnected($0.uppercased()) } ?? .noneConnected)
            }
            for target in connected { target.session.calibrateGyro() }
            return .success(connected.map(\.address))
        }
    }

    /// Lets a controller's measurement go (its `calibrate` client left, or it sent nothing in time).
    func cancelCalibration(address: String) {
        _ = registry.sessions(for: address).map { $0.forEach { $0.session.cancelGyroCalibration() } }
    }

    /// The bias measured for the controller at `address`, if any (rad/s about each axis).
    public func gyroBias(address: String) -> Vector3? {
        calibrations.biases[address.uppercased()]
    }

    // MARK: Controllers

    /// Takes a controller found by a source: it gets its own devices (the ones made at start, its own
    /// from an earlier connection, or a new set) and a session in its starting profile, which
    /// consumes the controller's feed. Again for the same feed (a reconnection) changes nothing.
    public func add(_ feed: ControllerFeed) {
        guard !stopped else { return }
        let address = feed.address.uppercased()
        let slot: ControllerSlot
        if let known = registry.slot(taking: address) {
            slot = known
        } else {
            do {
                let devices = try makeOutput(configuration, address)
                devices.sink.label = address
                for line in devices.sink.summary { Logger.info("created for \(address): \(line)") }
                slot = ControllerSlot(address: address, devices: devices)
                registry.append(slot)
            } catch {
                Logger.error("\(address): no virtual devices, so this controller is ignored: \(error)")
                return
            }
        }
        problem = nil
        if let session = slot.session {
            slot.attach(to: feed)
            Logger.debug("\(address): back, profile \(session.profileName)")
        } else {
            let session = makeSession(address: address, output: slot.devices.sink)
            slot.replaceSession(with: session)
            slot.attach(to: feed)
            Logger.notice("\(address): controller connected, profile \(session.profileName)")
        }
        if registry.watch.isWatching { registry.tap(slot, true) }
        if feed.isConnected, let session = slot.session { connectedForProfileLending(address: address, profile: session.profileName) }
        recordState(of: slot)
        recordBridgeState()
    }

    /// Shows a source's problem (one line saying what to do) in the status; the source logs it.
    public func report(problem: String) {
        self.problem = problem
        recordBridgeState()
    }

    /// Tells systemd (when it started the daemon) through `body`; a failure is logged with -v.
    func notify(_ body: (ServiceNotifier) throws -> Void) {
        guard let notifier else { return }
        do {
            try body(notifier)
        } catch {
            Logger.debug("sd_notify: \(error)")
        }
    }

    /// Swaps in a valid new configuration: everything released, devices kept where they still fit.
    private func replaceConfiguration(with new: MappingConfiguration, from old: MappingConfiguration) {
        guard !stopped else { return }
        policy.configurationChanging(to: new)
        policy.switchingItself {
            registry.adapt(to: new, from: old, at: reactor.now, makeDevices: makeOutput) { address, output in
                makeSession(address: address, output: output)
            }
        }
        policy.configurationReplaced(by: new, at: reactor.now)
        configurationReplacedForLending(from: old)
        for slot in registry.slots { recordState(of: slot) }
        recordBridgeState()
    }
}
