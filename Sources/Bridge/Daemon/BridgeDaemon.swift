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
/// Devices: the first set is made at start, before any controller connects, so games and Steam
/// see a pad early; the first controller takes it. Each further controller gets a new set when it
/// is first seen. Every set is kept until exit, across Bluetooth drops, and bound to its controller's
/// address, so a controller that comes back gets its own devices again.
///
/// No stuck input: a disconnect, a profile switch, a reload and exit each release everything
/// (and write the `SYN_REPORT`s) before anything else happens.
///
/// Signals (through the loop's signalfd): SIGTERM and SIGINT shut down (release, destroy the devices,
/// stop the loop); SIGHUP reloads the config; SIGUSR1 switches every controller to the next profile.
@MainActor
public final class BridgeDaemon {
    /// Makes one controller's devices for a configuration; `label` names them in the log.
    public typealias OutputFactory = @MainActor (_ configuration: MappingConfiguration, _ label: String) throws(VirtualDeviceError) -> ControllerDevices

    private let reactor: Reactor
    private let makeOutput: OutputFactory
    private var reloader: ConfigReloader
    private var slots: [ControllerSlot] = []
    /// The profile new controllers start in, when the command line or `profile NAME` chose one.
    private var profileOverride: String?
    private var notifier: ServiceNotifier?
    private var watcher: ConfigWatcher?
    private var watcherWatch: IOWatch?
    private var control: ControlServer?
    private var stopped = false
    /// The last problem a controller source reported (BlueZ missing, adapter off), shown in the
    /// status until a controller connects.
    private var problem: String?

    /// The DSU server beside the devices, when `run --dsu` or `[dsu]` started one: the control
    /// socket's `dsu` answers with its clients.
    public var dsuServer: DSUServer?

    /// Called after anything the D-Bus API shows changed: a controller seen, connected or
    /// disconnected, a battery or Device Information reading, a profile switch, a reload.
    public var changeHandler: (@MainActor () -> Void)?

    /// The application a desktop said has the focus (`follow-focus`, `SetFocusedApplication`), if any.
    public var focusedApplication: FocusedApplication? { follower.focused }
    private var follower = FocusFollower()
    /// Where measured gyro biases are kept (none: measured ones apply until exit only); set
    /// before controllers arrive.
    public var biasStore: GyroBiasStore? {
        get { calibrations.store }
        set { calibrations = GyroCalibrations(store: newValue) }
    }
    private var calibrations = GyroCalibrations(store: nil)
    /// The `watch` streams and their taps on the controllers.
    private lazy var watch: ControllerWatch = {
        let watch = ControllerWatch(reactor: reactor)
        watch.onIdle = { [weak self] in self?.setTapping(false) }
        return watch
    }()
    /// True while the daemon switches profiles itself (focus, reload): the engines' notices of
    /// those switches are not switches by hand.
    private var switchingItself = false

    /// The configuration running now.
    public var configuration: MappingConfiguration { reloader.current.configuration }

    /// A daemon with `loaded` as its config; makes the first set of devices now. Throws when they
    /// cannot be made (no `/dev/uinput`, no permission): the caller prints the one-line hint.
    public init(loaded: LoadedConfig, profile: String?, reactor: Reactor, makeOutput: @escaping OutputFactory) throws(VirtualDeviceError) {
        self.reactor = reactor
        self.makeOutput = makeOutput
        reloader = ConfigReloader(current: loaded)
        profileOverride = profile
        let first = try makeOutput(loaded.configuration, "controller 1")
        first.sink.label = "controller 1"
        for line in first.sink.summary { Logger.info("created \(line)") }
        slots.append(ControllerSlot(address: nil, devices: first))
    }

    // MARK: Start and stop

    /// Starts the signals, the config watcher (for a config file), the control socket at
    /// `controlSocket` (none when nil) and systemd notification. Problems with the watcher or the
    /// socket are logged; the daemon runs without them.
    public func start(controlSocket: String?) throws(SystemCallError) {
        for number in [SIGTERM, SIGINT] {
            try reactor.handleSignal(number) { [weak self] signal in
                Logger.info("\(signal == SIGTERM ? "SIGTERM" : "SIGINT"): stopping")
                self?.shutdown()
            }
        }
        try reactor.handleSignal(SIGHUP) { [weak self] _ in
            Logger.info("SIGHUP: reloading the config")
            self?.reload()
        }
        try reactor.handleSignal(SIGUSR1) { [weak self] _ in
            guard let self else { return }
            Logger.info("SIGUSR1: next profile")
            _ = self.cycleProfile(address: nil)
        }
        startWatcher()
        if let controlSocket {
            do {
                control = try ControlServer(path: controlSocket, reactor: reactor) { [weak self] request in
                    self?.handle(request) ?? .error("stopping")
                } streamHandler: { [weak self] stream in
                    self?.handle(stream)
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
        Logger.info("running with \(reloader.current.source); \(statusLine)")
    }

    /// Releases everything, writes it, destroys the devices and stops the loop. Safe to call twice.
    public func shutdown() {
        guard !stopped else { return }
        stopped = true
        changeHandler = nil
        notify { try $0.stopping(status: "stopping") }
        let now = reactor.now
        setTapping(false)
        for slot in slots {
            slot.detachFromFeed()
            slot.session?.stop(at: now)
            releaseHeld(slot, at: now)
        }
        slots.removeAll() // the last references: the devices are destroyed here
        control?.close()
        control = nil
        watcherWatch?.cancel()
        watcherWatch = nil
        watcher = nil
        reactor.stop()
    }

    // MARK: Controllers

    /// Takes a controller found by a source: it gets its own devices (the ones made at start, its own
    /// from an earlier connection, or a new set) and a session in its starting profile, which
    /// consumes the controller's feed. Again for the same feed (a reconnection) changes nothing.
    public func add(_ feed: ControllerFeed) {
        guard !stopped else { return }
        let address = feed.address.uppercased()
        let slot: ControllerSlot
        if let known = slots.first(where: { $0.address == address }) {
            slot = known
        } else if let spare = slots.first(where: { $0.address == nil }) {
            spare.address = address
            spare.devices.sink.label = address
            slot = spare
        } else {
            do {
                let devices = try makeOutput(configuration, address)
                devices.sink.label = address
                for line in devices.sink.summary { Logger.info("created for \(address): \(line)") }
                slot = ControllerSlot(address: address, devices: devices)
                slots.append(slot)
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
        if watch.isWatching { tap(slot, true) }
        updateStatus()
    }

    /// Releases whatever `slot`'s devices still hold down by their own record: the safety net
    /// after the engine's release on exit and before devices are replaced.
    private func releaseHeld(_ slot: ControllerSlot, at time: MonotonicTime) {
        do {
            try slot.devices.sink.releaseAll(at: time)
        } catch {
            Logger.error("\(slot.devices.sink.label): \(error)")
        }
    }

    /// Shows a source's problem (one line saying what to do) in the status; the source logs it.
    public func report(problem: String) {
        self.problem = problem
        updateStatus()
    }

    private func makeSession(address: String, output: any OutputSink) -> ControllerSession {
        let session = ControllerSession(
            address: address, configuration: configuration, profileName: profileOverride, output: output, scheduler: reactor
        )
        if let bias = calibrations.biases[address.uppercased()] { session.setGyroBias(bias) }
        session.noticeHandler = { [weak self] session, notice in
            switch notice {
            case .profileChanged(let from, let to):
                Logger.notice("\(session.address ?? "controller"): profile \(from) -> \(to)")
                if self?.watch.isWatching == true, let now = self?.reactor.now { self?.watch.send(address, "profile \(to)", at: now) }
                if self?.switchingItself == false { self?.follower.switchedByHand() }
                self?.updateStatus()
            case .recentered:
                Logger.info("\(session.address ?? "controller"): tilt recentred")
            case .gyroCalibrationStarted:
                Logger.notice("\(address): measuring the gyro's bias: hold the controller still")
                self?.changeHandler?()
            case .gyroCalibrationProgress(let fraction):
                self?.calibrations.progress(fraction, for: address)
            case .gyroCalibrationFailed:
                self?.calibrations.moved(address)
                self?.changeHandler?()
            case .gyroCalibrated(let bias):
                self?.calibrations.measured(bias, for: address)
                self?.changeHandler?()
            }
        }
        session.linkHandler = { [weak self] session, connected in
            Logger.notice("\(session.address ?? "controller"): \(connected ? "connected" : "disconnected; everything released")")
            if !connected, session.gyroCalibrationProgress != nil {
                session.cancelGyroCalibration()
                self?.calibrations.disconnected(address)
            }
            self?.updateStatus()
        }
        session.readingHandler = { [weak self] _ in self?.changeHandler?() }
        return session
    }

    // MARK: Profiles

    /// Switches every controller (or the one at `address`) to `name`, releasing everything first;
    /// new controllers start in it too when no address is given.
    public func switchProfile(to name: String, address: String?) -> ControlReply {
        guard configuration.profile(named: name) != nil else {
            return .error("no profile '\(name)'; profiles: \(ConfigurationChoice.profileList(configuration))")
        }
        let targets = try? sessions(for: address)
        guard let targets else { return .error("no controller \(address ?? "")") }
        follower.switchedByHand()
        if address == nil { profileOverride = name }
        let now = reactor.now
        for (_, session) in targets {
            session.switchProfile(to: name, at: now)
        }
        updateStatus()
        return .ok(statusLines)
    }

    /// Switches every controller (or one) to its next profile; the daemon's starting profile follows.
    public func cycleProfile(address: String?) -> ControlReply {
        let targets = try? sessions(for: address)
        guard let targets else { return .error("no controller \(address ?? "")") }
        follower.switchedByHand()
        let now = reactor.now
        for (_, session) in targets {
            let name = session.cycleProfile(at: now)
            if address == nil { profileOverride = name }
        }
        if targets.isEmpty, address == nil {
            let names = configuration.profiles.map(\.name)
            let current = profileOverride ?? configuration.startingProfileName(forController: nil)
            if let current, let index = names.firstIndex(of: current), !names.isEmpty {
                profileOverride = names[(index + 1) % names.count]
            }
        }
        updateStatus()
        return .ok(statusLines)
    }

    /// Starts measuring the gyro's bias of every connected controller (or the one at `address`),
    /// the controller held still; the lines say what was started. `stream`, when given, hears
    /// the progress and each result, and is finished when all have ended.
    public func calibrateGyro(address: String?, stream: ControlStream? = nil) -> ControlReply {
        guard let targets = try? sessions(for: address) else {
            let reply = ControlReply.error("no controller \(address ?? ""); controllers: \(controllerList)")
            stream.map { reply.lines.forEach($0.send); $0.finish() }
            return reply
        }
        let connected = targets.filter { target in slots.contains { $0.address == target.0 && $0.feed?.isConnected == true } }
        if connected.isEmpty {
            let reply = ControlReply.error("no controller is connected to measure; connect one, hold it still and calibrate again")
            stream.map { reply.lines.forEach($0.send); $0.finish() }
            return reply
        }
        for (_, session) in connected { session.calibrateGyro() }
        let addresses = connected.map(\.0)
        if let stream {
            calibrations.report(addresses, on: stream, reactor: reactor) { [weak self] address in
                _ = try? self?.sessions(for: address).forEach { $0.1.cancelGyroCalibration() }
            }
        }
        return .ok(addresses.map { "\($0): measuring the gyro's bias" })
    }

    /// One line per controller: its gyro bias, or that it has none.
    public var calibrationLines: [String] {
        calibrations.lines(for: slots.compactMap(\.address))
    }

    /// The bias measured for the controller at `address`, if any (rad/s about each axis).
    public func gyroBias(address: String) -> Vector3? {
        calibrations.biases[address.uppercased()]
    }

    private var controllerList: String {
        let addresses = slots.compactMap(\.address)
        return addresses.isEmpty ? "none" : addresses.joined(separator: ", ")
    }

    /// Takes the orientation of the next motion packet as the tilt's zero, for every controller
    /// (or the one at `address`).
    public func recenter(address: String?) -> ControlReply {
        guard let targets = try? sessions(for: address) else { return .error("no controller \(address ?? "")") }
        for (_, session) in targets { session.recenter() }
        return .ok(statusLines)
    }

    /// Takes the application a desktop says has the focus (`follow-focus`, a KWin script, a Shell
    /// extension): switches every controller to the profile that lists it, or back to the profiles
    /// from before when none does (`FocusFollower`). Everything held is released first, as on
    /// any switch.
    public func setFocusedApplication(_ application: FocusedApplication) {
        let decision = follower.focusChanged(to: application, in: configuration, current: profileSnapshot)
        // One line per focus change, its ids and title escaped: a switch at the normal level, a
        // change that switches nothing only with -v (a desktop may send thousands a second).
        let title = application.title.isEmpty ? "" : " (\(LogText.escaped(application.title)))"
        let focus = "focus: \(LogText.escaped(application.name))\(title)"
        if case .stay = decision { Logger.debug("\(focus): no profile change") }
        carryOut(decision, because: focus)
    }

    private var profileSnapshot: FocusFollower.Snapshot {
        var controllers: [String: String] = [:]
        for slot in slots {
            if let address = slot.address, let session = slot.session { controllers[address] = session.profileName }
        }
        return FocusFollower.Snapshot(starting: profileOverride, controllers: controllers)
    }

    private func carryOut(_ decision: FocusFollower.Decision, because reason: String) {
        let now = reactor.now
        switchingItself = true
        defer { switchingItself = false }
        switch decision {
        case .stay:
            return
        case .switchTo(let name):
            Logger.info("\(reason): profile \(name)")
            profileOverride = name
            for slot in slots { slot.session?.switchProfile(to: name, at: now) }
        case .restore(let snapshot):
            Logger.info("\(reason), which no profile lists: the profiles from before")
            profileOverride = snapshot.starting.flatMap { configuration.profile(named: $0) == nil ? nil : $0 }
            for slot in slots {
                guard let session = slot.session else { continue }
                let name = slot.address.flatMap { snapshot.controllers[$0] }
                    ?? profileOverride ?? configuration.startingProfileName(forController: slot.address)
                if let name, name != session.profileName { session.switchProfile(to: name, at: now) }
            }
        }
        updateStatus()
    }

    private struct NoSuchController: Error {}

    private func sessions(for address: String?) throws -> [(String, ControllerSession)] {
        let all = slots.compactMap { slot in slot.session.map { (slot.address ?? "controller", $0) } }
        guard let address else { return all }
        let matching = all.filter { $0.0 == address.uppercased() }
        if matching.isEmpty { throw NoSuchController() }
        return matching
    }

    private func handle(_ request: ControlRequest) -> ControlReply {
        switch request {
        case .profile(let name, let address): switchProfile(to: name, address: address)
        case .nextProfile(let address): cycleProfile(address: address)
        case .status: .ok(statusLines)
        case .dsu: .ok(dsuStatusLines)
        case .focus(let ids):
            { setFocusedApplication(FocusedApplication(ids: ids)); return .ok(statusLines) }()
        case .activeProfile: .ok([activeProfile])
        case .calibrate(let address): calibrateGyro(address: address)
        case .watch: .error("watch streams: it is answered as a stream")
        }
    }

    private func handle(_ stream: ControlStream) {
        switch stream.request {
        case .calibrate(let address): _ = calibrateGyro(address: address, stream: stream)
        case .watch: startWatching(stream)
        default:
            stream.send("error: '\(stream.request.line)' does not stream")
            stream.finish()
        }
    }

    // MARK: Watch

    private func startWatching(_ stream: ControlStream) {
        var current: [(address: String, text: String)] = []
        for slot in slots {
            guard let address = slot.address, let session = slot.session else { continue }
            current.append((address, slot.feed?.isConnected == true ? "connected" : "disconnected"))
            if let battery = slot.feed?.batteryPercent { current.append((address, "battery \(battery)")) }
            current.append((address, "profile \(session.profileName)"))
        }
        let first = !watch.isWatching
        watch.add(stream, current: current)
        if first { setTapping(true) }
    }

    /// Puts the watch's taps on every controller, or takes them off.
    private func setTapping(_ on: Bool) {
        for slot in slots { tap(slot, on) }
    }

    private func tap(_ slot: ControllerSlot, _ on: Bool) {
        guard let address = slot.address, let session = slot.session else { return }
        let packets = watch.tap(for: address)
        if on {
            // Before the session, so a packet's line comes before the events it causes.
            slot.detachFromFeed()
            slot.feed?.attach(packets)
            slot.attachToFeed()
            session.eventTap = { [weak self] events, time in self?.watch.send(events, of: address, at: time) }
        } else {
            slot.feed?.detach(packets)
            session.eventTap = nil
        }
    }

    // MARK: Reload

    private func startWatcher() {
        guard case .file(let path) = reloader.source else { return }
        do {
            let watcher = try ConfigWatcher(path: path)
            watcherWatch = try reactor.watch(watcher.fileDescriptor, interest: .readable) { [weak self] _ in
                guard let self, let watcher = self.watcher, watcher.readEvents() else { return }
                Logger.info("\(path) changed: reloading")
                self.readConfigAgain()
            }
            self.watcher = watcher
        } catch {
            Logger.warning("not watching the config for changes (SIGHUP still reloads): \(error)")
        }
    }

    /// SIGHUP's reload: makes the config watcher's watches again from scratch (or starts it, when
    /// it could not start before), whatever it saw meanwhile, then reads the config again. Returns
    /// what came of it (the errors, when the running config stays).
    @discardableResult
    public func reload() -> ConfigReloader.Outcome {
        guard !stopped else { return .unchanged }
        if let watcher { watcher.rearm() } else { startWatcher() }
        return readConfigAgain()
    }

    /// Reads and validates the config again; swaps it in at once when valid (releasing everything
    /// first), keeps the running one and logs why when not.
    @discardableResult
    private func readConfigAgain() -> ConfigReloader.Outcome {
        guard !stopped else { return .unchanged }
        notify { try $0.reloading(status: "reloading the config") }
        defer { notify { try $0.ready(status: statusLine) } }
        let outcome = reloader.reload()
        switch outcome {
        case .unchanged:
            Logger.info("config unchanged")
        case .kept(let reasons):
            Logger.warning("the new config has errors, so the running one stays:\n" + reasons.joined(separator: "\n"))
        case .reloaded(let loaded):
            switchingItself = true
            apply(loaded.configuration)
            switchingItself = false
            carryOut(follower.rulesChanged(in: loaded.configuration, current: profileSnapshot), because: "new rules")
            Logger.notice("config reloaded from \(loaded.source); profiles: \(ConfigurationChoice.profileList(loaded.configuration))")
        }
        return outcome
    }

    private func apply(_ new: MappingConfiguration) {
        if let override = profileOverride, new.profile(named: override) == nil { profileOverride = nil }
        let now = reactor.now
        for slot in slots {
            let old = slot.session?.configuration ?? configuration
            let sameDevices = old.capabilities == new.capabilities && old.gamepadIdentity == new.gamepadIdentity
            guard !sameDevices else {
                slot.session?.reload(new, at: now)
                continue
            }
            // The devices change: release on the old ones, then replace them.
            slot.session?.releaseAll(at: now)
            releaseHeld(slot, at: now)
            let label = slot.address ?? "controller 1"
            do {
                let devices = try makeOutput(new, label)
                devices.sink.label = label
                slot.replaceDevices(with: devices)
                for line in devices.sink.summary { Logger.notice("\(label): devices replaced for the new config: \(line)") }
            } catch {
                Logger.error("\(label): cannot make the devices the new config needs, keeping the old ones: \(error)")
            }
            guard let address = slot.address, slot.session != nil else { continue }
            let previousProfile = slot.session?.profileName
            let session = makeSession(address: address, output: slot.devices.sink)
            if let previousProfile, new.profile(named: previousProfile) != nil { session.switchProfile(to: previousProfile, at: now) }
            slot.replaceSession(with: session)
            if watch.isWatching { tap(slot, true) }
        }
        updateStatus()
    }

    // MARK: Status

    /// The profile every controller was last switched to, which new controllers start in.
    public var activeProfile: String {
        profileOverride ?? configuration.startingProfileName(forController: nil) ?? ""
    }

    /// One line per controller (or for the devices waiting for one).
    public var statusLines: [String] { slots.map(\.statusLine) }

    /// The status for systemd: every controller and its profile.
    public var statusLine: String {
        let withControllers = slots.filter { $0.session != nil }
        let problemText = problem.map { "; \($0)" } ?? ""
        guard !withControllers.isEmpty else {
            let profile = profileOverride ?? configuration.startingProfileName(forController: nil) ?? "none"
            return "waiting for a controller (profile \(profile))" + problemText
        }
        return withControllers.map(\.statusLine).joined(separator: "; ") + problemText
    }

    /// The DSU server's address, drops and clients, one line each; `DSU off` without one.
    public var dsuStatusLines: [String] { dsuServer?.status.lines ?? ["DSU off"] }

    /// What each controller seen so far shows: its address, name, link, battery, firmware,
    /// profile and packet counts, in the order they were first seen.
    public var controllers: [ControllerStatus] {
        slots.compactMap { slot in
            guard let address = slot.address, let session = slot.session else { return nil }
            return ControllerStatus(
                address: address, name: slot.feed?.name, isConnected: slot.feed?.isConnected == true,
                batteryPercent: slot.feed?.batteryPercent, firmware: slot.feed?.deviceInformation.firmwareVersion,
                profile: session.profileName, statistics: slot.feed?.statistics ?? DDControllerStatistics(),
                gyroBias: calibrations.biases[address.uppercased()], isCalibrating: session.gyroCalibrationProgress != nil)
        }
    }

    private func updateStatus() {
        let line = statusLine
        notify { try $0.status(line) }
        changeHandler?()
    }

    private func notify(_ body: (ServiceNotifier) throws -> Void) {
        guard let notifier else { return }
        do {
            try body(notifier)
        } catch {
            Logger.debug("sd_notify: \(error)")
        }
    }
}
