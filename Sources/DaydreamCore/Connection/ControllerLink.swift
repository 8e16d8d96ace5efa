import BlueZ
import DaydreamProtocol
import EventLoop
import Timebase

/// The connection of one controller: connect, wait for services, subscribe
/// to the input characteristic (AcquireNotify, or StartNotify as fallback),
/// battery and device information; on loss, report at once and reconnect
/// with backoff. One link per address, for the life of the manager, so its
/// `ControllerFeed` (and the `DDController` model, when the manager makes
/// one) stays the same object across reconnects. Packets, link changes,
/// battery and device information go to the feed, which hands them to every
/// consumer attached to it.
///
/// The stream decides whether the link is up. The controller streams without
/// pause while awake, so a silence of `Options.silenceTimeout`, or BlueZ
/// reporting `Connected=false` (which bluetoothd can do while the link lives),
/// interrupts the stream: everything is released at once and reported as a
/// disconnect, but the socket is still read. After a silence, the next
/// notification resumes the stream (and nothing wakes the loop meanwhile).
/// After `Connected=false`, notifications during the next `silenceTimeout`
/// show the link is up and the stream resumes; none, and the link is lost.
/// The socket's hang-up loses it at any time. On the StartNotify path, where
/// no socket can hang up, a silence while BlueZ's flag is still down (the
/// stream outlived a `Connected=false`) is judged as that flag is: the next
/// `silenceTimeout` decides. Resolving services and subscribing are bounded
/// too (`resolveTimeout`, `subscribeTimeout`): a link that never gets there
/// is disconnected and tried again.
///
/// Lending (`lend()`) lets go of the input notifications for another program (Monado's
/// `AcquireNotify`) and keeps the connection and the bond, which that program cannot make: the
/// link is `lent`, reads nothing and judges no silence; a reconnection while lent stays lent.
/// It takes the controller back on `reclaim()`, or by itself when the other holder lets go
/// (the input characteristic's `NotifyAcquired` goes false after it was seen true).
///
/// The link's states are `State`, moved only by `apply` through the table in
/// `transition(from:on:)`; an event its state has no edge for is logged and ignored.
@MainActor
final class ControllerLink {
    /// Where everything the controller sends goes.
    let feed: ControllerFeed
    /// The library's model, fed by `feed`, when the manager makes models.
    let model: DDController?
    private(set) var devicePath: String?

    unowned let manager: DaydreamControllerManager
    var client: BlueZClient { manager.client }
    var reactor: Reactor { manager.reactor }
    var log: LogSink { manager.log }
    private var machine: StateMachine<State, Event>
    /// The deadline of the current state (its retry, its timeout, the next silence check, the
    /// end of an interruption): cancelled on every change of state.
    private var stateTimer: ScheduledTimer?
    /// What the current attempt acquired: released all at once when the link is lost.
    private var held = Held()
    private var backoff: Backoff
    private let sessions: NotifySessions
    /// `Device1.Connected` as last seen.
    private var bluezReportedConnected = false
    /// Bumped on every loss, so completions of an older attempt are ignored.
    private var generation = 0
    /// When the last connection attempt failed (not for authentication).
    private var lastConnectFailure: MonotonicTime?
    /// bluetoothd vanishing this soon after a failed connect is taken as its doing.
    private static let stoppedWhileConnectingWindow = TimeSpan.seconds(3)
    /// After that, no connection attempt before this time, so that a restarted
    /// bluetoothd is not brought down again before the user can `forget`.
    private var holdOffUntil: MonotonicTime?
    /// Whether the input notifications are left to another program (see `lend()`).
    private(set) var isLent = false
    /// Whether, while lent, another program was seen holding the notifications: its letting go
    /// (`NotifyAcquired` false) then takes the controller back. The false that follows the link's
    /// own release is not such a letting go.
    var otherHolderSeen = false

    /// What an attempt acquires on the way to the stream, released together.
    private struct Held {
        var stream: NotificationStream?
        /// The family's start / keep-alive / stop protocol, for a family that has one.
        var streamMachine: ControllerStreamMachine?
        /// Characteristics whose values are observed.
        var valueObserved: [String] = []
        /// When the StartNotify path last got a value.
        var lastValueReceived = MonotonicTime.zero
        var battery: ControllerBattery?
    }

    /// A link for the controller at `address` of `family`; with a `model`, the model is the feed's first consumer.
    init(address: String, family: ControllerFamily = .daydream, model: DDController?, manager: DaydreamControllerManager) {
        feed = ControllerFeed(address: address, family: family)
        self.model = model
        self.manager = manager
        machine = StateMachine(.idle(retryAt: nil), label: address, transition: Self.transition(from:on:))
        backoff = Backoff(initial: manager.options.reconnectDelay, maximum: manager.options.maximumReconnectDelay)
        sessions = NotifySessions(client: manager.client, label: address, log: manager.log)
        feed.batteryReader = { [weak self] in self?.readBattery() }
        feed.lender = { [weak self] lend in
            guard let self else { return false }
            if lend { return self.lend() }
            reclaim()
            return true
        }
        model?.follow(feed)
    }

    /// The controller's address.
    var address: String { feed.address }

    /// The controller's family.
    var family: ControllerFamily { feed.family }

    /// Where the link is.
    var state: State { machine.state }

    /// How packets arrive, once streaming.
    var notifyMethod: DaydreamControllerManager.NotifyMethod? { state.subscription?.method }

    private var device: DeviceInfo? { devicePath.flatMap { client.cache.device(at: $0) } }

    // MARK: State

    /// The only place the state changes: a new state gets its own deadline.
    @discardableResult
    func apply(_ event: Event) -> Bool {
        let previous = state
        guard machine.apply(event, log: log) else { return false }
        if state != previous {
            stateTimer?.cancel()
            stateTimer = nil
            armStateTimer()
        }
        return true
    }

    private func armStateTimer() {
        let deadline: MonotonicTime
        switch state {
        case .idle(retryAt: let time?), .resolving(let time), .subscribing(let time, _): deadline = time
        case .streaming: deadline = lastReceived + silenceTimeout  // one check, not a timer per packet
        case .reportedDown(_, let since): deadline = since + silenceTimeout
        case .idle(retryAt: nil), .pairing, .connecting, .silent, .lent: return
        }
        stateTimer?.cancel()
        stateTimer = reactor.schedule(at: deadline) { [weak self] in
            guard let self else { return }
            stateTimer = nil
            deadlineReached()
        }
    }

    private func deadlineReached() {
        switch state {
        case .idle:
            apply(.retryDue)
            if let device, manager.mayConnect(device) { update(device) }
        case .resolving:
            giveUp("services were not resolved within \(manager.options.resolveTimeout)")
        case .subscribing:
            giveUp("subscribing took over \(manager.options.subscribeTimeout)")
        case .streaming, .reportedDown:
            checkStream()
        case .pairing, .connecting, .silent, .lent:
            break  // no deadline
        }
    }

    /// A link that is up but never got further would otherwise wait forever.
    private func giveUp(_ reason: String) {
        let path = devicePath
        log.info("\(address): \(reason); disconnecting to start afresh")
        lost(reason)
        if let path { client.disconnect(device: path) { _ in } }
    }

    // MARK: Events from the manager

    /// The device object appeared or changed.
    func update(_ device: DeviceInfo) {
        devicePath = device.path
        // Only the change counts: a stream that outlived Connected=false goes on while the flag stays down.
        let reportedDown = bluezReportedConnected && !device.isConnected
        bluezReportedConnected = device.isConnected
        switch state {
        case .streaming:
            if reportedDown { interrupt("BlueZ reports the controller disconnected", bluezReportsDisconnect: true) }
        case .silent:
            // After a silence BlueZ reports the link down too: now a silence ends it.
            if reportedDown { apply(.reportedDown(at: reactor.now)) }
        case .reportedDown:
            break
        case .subscribing:
            if !device.isConnected { lost("BlueZ reports the controller disconnected") }
        case .resolving:
            if !device.isConnected {
                lost("the connection dropped before services were resolved")
            } else if device.servicesResolved {
                subscribe()
            }
        case .lent:
            // No stream to judge by: BlueZ's word ends the link; the reconnection stays lent.
            if !device.isConnected { lost("BlueZ reports the controller disconnected while lent") }
        case .pairing, .connecting:
            break
        case .idle(let retryAt):
            guard manager.mayConnect(device) else { return }
            if device.isConnected && device.servicesResolved {
                subscribe()
            } else if retryAt != nil {
                // A retry is due: a link half up or half down now (Connected before
                // ServicesResolved, or the other way) is looked at then, not counted as a failure.
                return
            } else if device.isConnected {
                resolving()
            } else {
                if let holdOffUntil, reactor.now < holdOffUntil {
                    log.debug("\(address): not connecting before \(holdOffUntil - reactor.now) from now")
                    apply(.retryScheduled(at: holdOffUntil))
                } else {
                    attemptConnect()
                }
            }
        }
    }

    /// New GATT objects appeared under the device.
    func gattChanged() {
        if case .subscribing(_, requested: false) = state, let device, device.servicesResolved {
            // Services were announced after ServicesResolved: try again with the complete table.
            subscribe()
        }
    }

    /// The Device1 object went away (BlueZ drops temporary devices); it may come back.
    func deviceVanished() {
        lost("the controller's BlueZ object was removed", retry: false, sessionsGone: true)
        devicePath = nil
        holdOffUntil = nil  // forgotten: a new pairing starts afresh
    }

    /// bluetoothd went away: everything it gave us is gone.
    func serviceVanished() {
        let failedJustNow = lastConnectFailure.map { reactor.now - $0 < Self.stoppedWhileConnectingWindow } ?? false
        if failedJustNow {
            manager.report(.bluetoothdStoppedWhileConnecting(address: address))
            holdOffUntil = reactor.now + manager.options.maximumReconnectDelay
        }
        lastConnectFailure = nil
        lost("bluetoothd stopped", retry: false, sessionsGone: true)
        devicePath = nil
    }

    /// Disconnects and stops reconnecting (the manager is stopping).
    func shutDown(disconnect: Bool) {
        let path = devicePath
        let wasConnected = !state.isIdle
        held.streamMachine?.stop()  // the stop command (the Gear VR's 0000) before letting go
        lost("shutting down", retry: false)
        if disconnect, wasConnected, let path { client.disconnect(device: path) { _ in } }
    }

    // MARK: Connecting

    private func attemptConnect() {
        guard let path = devicePath, state.isIdle else { return }
        let attempt = generation
        if let device, !device.isPaired {
            // The controller's firmware sends nothing without a bond: pair first.
            apply(.pair)
            manager.pair(address: address) { [weak self] result in
                guard let self, attempt == generation, state == .pairing else { return }
                apply(.pairingEnded)
                switch result {
                case .success:
                    if let fresh = self.device { update(fresh) }
                case .failure:
                    scheduleRetry()
                }
            }
            return
        }
        apply(.connect)
        client.connect(device: path) { [weak self] result in
            guard let self, attempt == generation, state == .connecting else { return }
            switch result {
            case .success:
                lastConnectFailure = nil
                holdOffUntil = nil
                resolving()
                if let device, device.servicesResolved { subscribe() }
            case .failure(let error):
                apply(.connectFailed)
                if error.isAuthenticationFailure {
                    manager.report(.staleBond(address: address), error: error)
                } else {
                    lastConnectFailure = reactor.now
                    log.info("\(address): connect failed: \(error)")
                }
                scheduleRetry()
            }
        }
    }

    private func scheduleRetry() {
        guard manager.isRunning else {
            apply(.retryCancelled)
            return
        }
        let delay = backoff.next()
        log.debug("\(address): next connection attempt in \(delay)")
        apply(.retryScheduled(at: reactor.now + delay))
    }

    /// A sighting (advertisement) of the device: connect now if no retry is pending.
    func sighted() {
        guard state == .idle(retryAt: nil), let device, manager.mayConnect(device) else { return }
        update(device)
    }

    // MARK: Subscribing

    func characteristic(_ uuid: String, in service: String? = nil) -> CharacteristicInfo? {
        guard let path = devicePath else { return nil }
        return client.cache.characteristics(of: path).first { characteristic in
            characteristic.uuid == uuid && (service == nil || characteristic.serviceUUID == service)
        }
    }

    private func resolving() {
        apply(.connected(resolveBy: reactor.now + manager.options.resolveTimeout))
    }

    func subscribe() {
        if isLent {
            log.info("\(address): connected, lent: the input notifications are left to another program")
            apply(.lend)
            return
        }
        if !state.isSubscribing {
            apply(.servicesResolved(subscribeBy: reactor.now + manager.options.subscribeTimeout))
        }
        guard let input = characteristic(family.gatt.input, in: family.gatt.dataService) else {
            log.debug("\(address): services resolved, input characteristic not (yet) found")
            return
        }
        let attempt = generation
        apply(.subscriptionRequested)
        client.acquireNotify(characteristic: input.path) { [weak self] result in
            guard let self, attempt == generation, state.isSubscribing else { return }
            switch result {
            case .success(let acquired):
                // A reply's descriptor is taken once, here: nil would mean a bug in the BlueZ client.
                guard let socket = acquired.descriptor.take() else { return lost("no notification socket") }
                do {
                    held.stream = try NotificationStream(
                        socket: socket, mtu: acquired.mtu, reactor: reactor, feed: feed,
                        onClosed: { [weak self] reason in self?.lost(reason) })
                    held.stream?.onUndelivered = { [weak self] in self?.notificationWhileInterrupted() }
                    streaming(.acquireNotify)
                } catch {
                    log.error("\(address): cannot read notifications: \(error)")
                    lost("no notification socket")
                }
            case .failure(let error) where error.shortName == "InProgress":
                // Another program has notifications on (a StartNotify session): share them.
                log.info("\(address): AcquireNotify refused (\(error.name): another client's notifications are on); using StartNotify")
                startNotify(input.path, attempt: attempt)
            case .failure(let error) where ["NotSupported", "NotPermitted", "Failed"].contains(error.shortName):
                log.info("\(address): AcquireNotify refused (\(error.name)); using StartNotify")
                startNotify(input.path, attempt: attempt)
            case .failure(let error):
                log.error("\(address): AcquireNotify failed: \(error)")
                lost("cannot subscribe to input notifications")
            }
        }
    }

    private func startNotify(_ path: String, attempt: Int) {
        client.setValueObserver(characteristic: path) { [weak self] value in
            guard let self else { return }
            let now = reactor.now
            held.lastValueReceived = now
            if state.isInterrupted { notificationWhileInterrupted() }
            guard !state.isInterrupted else { return }
            value.withUnsafeBytes { feed.receive($0, at: now) }
        }
        held.valueObserved.append(path)
        sessions.start(path) { [weak self] result in
            guard let self, attempt == generation, state.isSubscribing else { return }
            switch result {
            case .success: streaming(.startNotify)
            case .failure(let error) where error.shortName == "NotPermitted":
                // Both refused as NotPermitted: another client acquired the notifications.
                log.info("\(address): another program holds the input notifications (\(error))")
                feed.inputHeldByAnotherProgram = true
                lost("cannot subscribe to input notifications")
            case .failure(let error):
                log.error("\(address): StartNotify failed: \(error)")
                lost("cannot subscribe to input notifications")
            }
        }
    }

    private func streaming(_ method: DaydreamControllerManager.NotifyMethod) {
        held.lastValueReceived = reactor.now
        apply(.subscribed(method, at: reactor.now))
        feed.inputHeldByAnotherProgram = false
        log.info("\(address): connected, streaming through \(method)")
        if let name = device?.name { feed.name = name }
        feed.linkChanged(connected: true, at: reactor.now)
        manager.linkConnected(self)
        startStreamProtocol()
        if let devicePath {
            let battery = ControllerBattery(
                level: characteristic(DaydreamGATT.batteryLevelUUID), devicePath: devicePath, feed: feed, client: client,
                reactor: reactor, log: log, mayRead: { [weak self] in if case .streaming = self?.state { true } else { false } })
            held.battery = battery
            battery.start(sessions: sessions, pollInterval: manager.options.batteryPollInterval)
        }
        readDeviceInformation()
    }

    /// A family that is started by commands (the Gear VR) gets its `ControllerStreamMachine`:
    /// it writes to the family's command characteristic, hears the echoes the feed sets aside,
    /// and takes the link down when its restarts fail.
    private func startStreamProtocol() {
        guard !family.stream.isPassive || family.stream.restartAfterSilenceMilliseconds != nil else { return }
        let machine = ControllerStreamMachine(stream: family.stream, scheduler: reactor, log: log, label: address)
        let commandPath = family.gatt.command.flatMap { characteristic($0, in: family.gatt.dataService)?.path }
        let attempt = generation
        machine.write = { [weak self] command in
            guard let self, let commandPath else { return }
            client.writeValue(command, characteristic: commandPath) { [weak self] result in
                guard let self, case .failure(let error) = result else { return }
                log.info("\(address): writing \(Hex.encode(command)) failed: \(error)")
            }
        }
        machine.packetsReceived = { [weak self] in self?.feed.statistics.received ?? 0 }
        machine.onDown = { [weak self] in
            guard let self, attempt == generation else { return }
            lost("the stream did not start again after \(family.stream.restartTries) tries")
        }
        machine.onRestart = { [weak self] in
            guard let self, attempt == generation else { return }
            lost("no packet; subscribing again")
        }
        feed.commandEchoed = { [weak machine] command in machine?.echoed(command) }
        held.streamMachine = machine
        machine.subscribed()
    }

    // MARK: Silence and interruptions

    /// The Daydream's (the options'); a family with a restart protocol is judged by it instead,
    /// after its own silence.
    private var silenceTimeout: TimeSpan {
        family.stream.restartAfterSilenceMilliseconds.map { .milliseconds(Int64($0)) } ?? manager.options.silenceTimeout
    }
    private var lastReceived: MonotonicTime { held.stream?.lastReceived ?? held.lastValueReceived }

    private func checkStream() {
        // What is queued has arrived: read it before judging (the loop may have been late).
        held.stream?.readQueued()
        switch state {
        case .streaming(let subscription):
            if reactor.now - lastReceived >= silenceTimeout {
                // On the StartNotify path no socket hangs up when the link goes, and after a flap
                // the stream outlived, BlueZ's flag is down already: no Connected=false will come
                // either. The silence is then taken as BlueZ's word, and the next timeout decides.
                let nothingElseWillTell = subscription.method == .startNotify && !bluezReportedConnected
                interrupt("no notification for \(silenceTimeout)", bluezReportsDisconnect: nothingElseWillTell)
            } else {
                armStateTimer()
            }
        case .reportedDown(_, let since):
            if lastReceived > since {
                resume(.streamWentOn)
            } else {
                lost("nothing arrived for \(silenceTimeout) after the interruption")
            }
        default:
            break  // what was read ended the interruption or the link
        }
    }

    /// Releases everything at once and reports a disconnect, but keeps reading. After
    /// BlueZ's `Connected=false` the next `silenceTimeout` decides (`checkStream`);
    /// after a silence the next notification resumes the stream, with no timer meanwhile.
    private func interrupt(_ reason: String, bluezReportsDisconnect: Bool) {
        // Notifications already queued came before the interruption: still delivered.
        held.stream?.readQueued()
        guard case .streaming = state else { return }  // the socket closed meanwhile
        apply(bluezReportsDisconnect ? .reportedDown(at: reactor.now) : .silence)
        held.stream?.delivers = false
        log.info("\(address): \(reason): everything released; the stream decides")
        feed.linkChanged(connected: false, at: reactor.now)
        manager.linkDisconnected(self)
    }

    /// A notification read while interrupted: after a silence, the link is up, and this
    /// notification is the stream's first again (delivered, not dropped: it may hold a press).
    /// After `Connected=false` it is dropped; the end of the `silenceTimeout` decides.
    private func notificationWhileInterrupted() {
        if case .silent = state {
            resume(.notificationWhileInterrupted)
        } else {
            apply(.notificationWhileInterrupted)
        }
    }

    /// Notifications kept coming through the interruption: the link is up.
    private func resume(_ event: Event) {
        apply(event)
        held.stream?.delivers = true
        log.info("\(address): the stream went on; connected again")
        feed.linkChanged(connected: true, at: reactor.now)
        manager.linkConnected(self)
    }

    // MARK: Battery and device information

    /// The device's `Battery1` appeared or changed.
    func batteryPluginChanged() {
        held.battery?.pluginChanged()
    }

    /// Reads the battery level; the feed's consumers hear it when it arrives.
    func readBattery() {
        held.battery?.read()
    }

    private func readDeviceInformation() {
        let fields: [(String, @Sendable (String) -> ControllerDeviceInformation)] = [
            (DaydreamGATT.manufacturerNameUUID, { ControllerDeviceInformation(manufacturer: $0) }),
            (DaydreamGATT.modelNumberUUID, { ControllerDeviceInformation(modelNumber: $0) }),
            (DaydreamGATT.serialNumberUUID, { ControllerDeviceInformation(serialNumber: $0) }),
            (DaydreamGATT.hardwareRevisionUUID, { ControllerDeviceInformation(hardwareVersion: $0) }),
            (DaydreamGATT.firmwareRevisionUUID, { ControllerDeviceInformation(firmwareVersion: $0) }),
            (DaydreamGATT.softwareRevisionUUID, { ControllerDeviceInformation(softwareVersion: $0) }),
        ]
        for (uuid, information) in fields {
            guard let path = characteristic(uuid)?.path else { continue }
            client.readValue(characteristic: path) { [weak self] result in
                guard let self else { return }
                switch result {
                case .success(let value):
                    let text = String(decoding: value.prefix { $0 != 0 }, as: UTF8.self)
                    feed.deviceInformationChanged(information(text))
                case .failure(let error):
                    log.info("\(address): reading \(uuid) failed: \(error)")
                }
            }
        }
    }

    // MARK: Lending

    /// Records whether the controller is lent; the feed's consumers hear it.
    func setLent(_ lent: Bool) {
        isLent = lent
        otherHolderSeen = false
        feed.lendingChanged(lent: lent, at: reactor.now)
    }

    /// Closes the acquired socket, ends the StartNotify sessions and stops the battery's
    /// reads, keeping the connection; an answer to a subscription under way is ignored (its
    /// socket, if any, closed).
    func letGoOfNotifications() {
        generation += 1
        held.stream?.close()
        for path in held.valueObserved { client.setValueObserver(characteristic: path, nil) }
        held.battery?.stop()
        sessions.stopAll()
        held = Held()
    }

    // MARK: Loss

    /// The link is gone: release everything, report the disconnect (every held
    /// button released, handlers called), undo the StartNotify sessions (unless
    /// `sessionsGone`: bluetoothd or the device's objects went away), and try again
    /// later when `retry`. The backoff restarts from its first delay only when
    /// the stream had held for `stableStreamDuration`.
    func lost(_ reason: String, retry: Bool = true, sessionsGone: Bool = false) {
        generation += 1
        let previous = state
        apply(.lost)
        if let since = previous.subscription?.since, reactor.now - since >= manager.options.stableStreamDuration {
            backoff.reset()
        }
        held.streamMachine?.stop(writeStop: false)
        feed.commandEchoed = nil
        held.stream?.close()
        for path in held.valueObserved { client.setValueObserver(characteristic: path, nil) }
        held.battery?.stop()
        if sessionsGone { sessions.forgetAll() } else { sessions.stopAll() }
        held = Held()
        if !retry { apply(.retryCancelled) }
        switch previous {
        case .streaming:
            log.info("\(address): disconnected: \(reason)")
            feed.linkChanged(connected: false, at: reactor.now)
            manager.linkDisconnected(self)
        case .silent, .reportedDown, .lent:
            log.info("\(address): disconnected: \(reason)")  // released and reported when interrupted or lent
        case .pairing, .connecting, .resolving, .subscribing:
            log.debug("\(address): connection attempt ended: \(reason)")
        case .idle:
            break
        }
        if retry && !previous.isIdle { scheduleRetry() }
    }
}
