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
/// The socket's hang-up loses it at any time. Resolving services and
/// subscribing are bounded too (`resolveTimeout`, `subscribeTimeout`): a link
/// that never gets there is disconnected and tried again.
@MainActor
final class ControllerLink {
    enum State: Equatable {
        /// Not connected; a retry may be scheduled.
        case idle
        /// `Device1.Connect` sent.
        case connecting
        /// Connected; waiting for `ServicesResolved`.
        case resolving
        /// Acquiring the input notifications.
        case subscribing
        /// Packets flow.
        case streaming
        /// The stream went silent or BlueZ reported a disconnect: everything is released;
        /// the stream decides between resuming and losing the link.
        case interrupted
    }

    /// Where everything the controller sends goes.
    let feed: ControllerFeed
    /// The library's model, fed by `feed`, when the manager makes models.
    let model: DDController?
    private(set) var state = State.idle
    private(set) var devicePath: String?
    /// How packets arrive, once streaming.
    private(set) var notifyMethod: DaydreamControllerManager.NotifyMethod?

    private unowned let manager: DaydreamControllerManager
    private var client: BlueZClient { manager.client }
    private var reactor: Reactor { manager.reactor }
    private var log: LogSink { manager.log }
    private var backoff: Backoff
    private var retryTimer: ScheduledTimer?
    /// The one deadline of the current state: the resolving or subscribing timeout,
    /// the next silence check while streaming, the end of an interruption.
    private var stateTimer: ScheduledTimer?
    /// When the current subscription began streaming: the backoff restarts only after a stream held.
    private var streamStarted: MonotonicTime?
    /// When the stream was interrupted by BlueZ's `Connected=false`: the next
    /// `silenceTimeout` decides. Nil while interrupted by a silence: the next notification does.
    private var interruptedAt: MonotonicTime?
    /// `Device1.Connected` as last seen.
    private var bluezReportedConnected = false
    /// When the StartNotify path last got a value.
    private var lastValueReceived = MonotonicTime.zero
    private let sessions: NotifySessions
    private var batteryTimer: ScheduledTimer?
    private var stream: NotificationStream?
    private var valueObserved: [String] = []
    private var batteryPath: String?
    /// Battery reads sent and not answered yet.
    private var batteryReadsPending = 0
    /// Bumped on every loss, so completions of an older attempt are ignored.
    private var generation = 0
    /// AcquireNotify (or its StartNotify fallback) is under way: GATT objects
    /// appearing meanwhile must not start a second subscription.
    private var subscriptionRequested = false
    /// When the last connection attempt failed (not for authentication).
    private var lastConnectFailure: MonotonicTime?
    /// bluetoothd vanishing this soon after a failed connect is taken as its doing.
    private static let stoppedWhileConnectingWindow = TimeSpan.seconds(3)
    /// After that, no connection attempt before this time, so that a restarted
    /// bluetoothd is not brought down again before the user can `forget`.
    private var holdOffUntil: MonotonicTime?

    /// A link for the controller at `address`; with a `model`, the model is the feed's first consumer.
    init(address: String, model: DDController?, manager: DaydreamControllerManager) {
        feed = ControllerFeed(address: address)
        self.model = model
        self.manager = manager
        backoff = Backoff(initial: manager.options.reconnectDelay, maximum: manager.options.maximumReconnectDelay)
        sessions = NotifySessions(client: manager.client, label: address, log: manager.log)
        feed.batteryReader = { [weak self] in self?.readBattery() }
        model?.follow(feed)
    }

    /// The controller's address.
    var address: String { feed.address }

    private var device: DeviceInfo? { devicePath.flatMap { client.cache.device(at: $0) } }

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
        case .interrupted:
            // After a silence BlueZ reports the link down too: now a silence ends it.
            if reportedDown, interruptedAt == nil { awaitStream() }
        case .subscribing:
            if !device.isConnected { lost("BlueZ reports the controller disconnected") }
        case .resolving:
            if !device.isConnected {
                lost("the connection dropped before services were resolved")
            } else if device.servicesResolved {
                subscribe()
            }
        case .connecting:
            break
        case .idle:
            guard manager.mayConnect(device) else { return }
            if device.isConnected && device.servicesResolved {
                subscribe()
            } else if retryTimer != nil {
                // A retry is due: a link half up or half down now (Connected before
                // ServicesResolved, or the other way) is looked at then, not counted as a failure.
                return
            } else if device.isConnected {
                resolving()
            } else {
                if let holdOffUntil, reactor.now < holdOffUntil {
                    log.debug("\(address): not connecting before \(holdOffUntil - reactor.now) from now")
                    scheduleAttempt(at: holdOffUntil)
                } else {
                    attemptConnect()
                }
            }
        }
    }

    /// New GATT objects appeared under the device.
    func gattChanged() {
        if state == .subscribing, !subscriptionRequested, stream == nil, notifyMethod == nil,
           let device, device.servicesResolved {
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
        let wasConnected = state != .idle
        lost("shutting down", retry: false)
        if disconnect, wasConnected, let path { client.disconnect(device: path) { _ in } }
    }

    // MARK: Connecting

    private func attemptConnect() {
        guard let path = devicePath, state == .idle else { return }
        state = .connecting
        let attempt = generation
        if let device, !device.isPaired {
            // The controller's firmware sends nothing without a bond: pair first.
            manager.pair(address: address) { [weak self] result in
                guard let self, attempt == generation, state == .connecting else { return }
                state = .idle
                switch result {
                case .success:
                    if let fresh = self.device { update(fresh) }
                case .failure:
                    scheduleRetry()
                }
            }
            return
        }
        client.connect(device: path) { [weak self] result in
            guard let self, attempt == generation, state == .connecting else { return }
            switch result {
            case .success:
                lastConnectFailure = nil
                holdOffUntil = nil
                resolving()
                if let device, device.servicesResolved { subscribe() }
            case .failure(let error):
                state = .idle
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
        retryTimer?.cancel()
        guard manager.isRunning else { return }
        let delay = backoff.next()
        log.debug("\(address): next connection attempt in \(delay)")
        scheduleAttempt(at: reactor.now + delay)
    }

    private func scheduleAttempt(at time: MonotonicTime) {
        retryTimer?.cancel()
        retryTimer = reactor.schedule(at: time) { [weak self] in
            guard let self else { return }
            retryTimer = nil
            if let device, manager.mayConnect(device) { update(device) }
        }
    }

    /// A sighting (advertisement) of the device: connect now if no retry is pending.
    func sighted() {
        guard state == .idle, retryTimer == nil, let device, manager.mayConnect(device) else { return }
        update(device)
    }

    // MARK: Subscribing

    private func characteristic(_ uuid: String, in service: String? = nil) -> CharacteristicInfo? {
        guard let path = devicePath else { return nil }
        return client.cache.characteristics(of: path).first { characteristic in
            characteristic.uuid == uuid && (service == nil || characteristic.serviceUUID == service)
        }
    }

    private func resolving() {
        state = .resolving
        armTimeout(manager.options.resolveTimeout, "services were not resolved within \(manager.options.resolveTimeout)")
    }

    /// Bounds the current state: a link that is up but silent would otherwise wait forever.
    private func armTimeout(_ span: TimeSpan, _ reason: String) {
        stateTimer?.cancel()
        stateTimer = reactor.schedule(after: span) { [weak self] in
            guard let self else { return }
            stateTimer = nil
            let path = devicePath
            log.info("\(address): \(reason); disconnecting to start afresh")
            lost(reason)
            if let path { client.disconnect(device: path) { _ in } }
        }
    }

    private func subscribe() {
        if state != .subscribing {
            state = .subscribing
            armTimeout(manager.options.subscribeTimeout, "subscribing took over \(manager.options.subscribeTimeout)")
        }
        guard let input = characteristic(DaydreamGATT.inputCharacteristicUUID, in: DaydreamGATT.serviceUUID) else {
            log.debug("\(address): services resolved, input characteristic not (yet) found")
            return
        }
        let attempt = generation
        subscriptionRequested = true
        client.acquireNotify(characteristic: input.path) { [weak self] result in
            guard let self, attempt == generation, state == .subscribing else { return }
            switch result {
            case .success(let acquired):
                // A reply's descriptor is taken once, here: nil would mean a bug in the BlueZ client.
                guard let socket = acquired.descriptor.take() else { return lost("no notification socket") }
                do {
                    stream = try NotificationStream(
                        socket: socket, mtu: acquired.mtu, reactor: reactor,
                        // The feed, not the link: no weak load per packet, and no cycle
                        // (the feed holds neither the link nor the stream).
                        onPacket: { [feed] bytes, time in feed.receive(bytes, at: time) },
                        onClosed: { [weak self] reason in self?.lost(reason) })
                    stream?.onUndelivered = { [weak self] in self?.notificationWhileInterrupted() }
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
            lastValueReceived = now
            if state == .interrupted { notificationWhileInterrupted() }
            guard state != .interrupted else { return }
            value.withUnsafeBytes { feed.receive($0, at: now) }
        }
        valueObserved.append(path)
        sessions.start(path) { [weak self] result in
            guard let self, attempt == generation, state == .subscribing else { return }
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
        state = .streaming
        feed.inputHeldByAnotherProgram = false
        notifyMethod = method
        streamStarted = reactor.now
        lastValueReceived = reactor.now
        retryTimer?.cancel()
        retryTimer = nil
        log.info("\(address): connected, streaming through \(method)")
        if let name = device?.name { feed.name = name }
        feed.linkChanged(connected: true, at: reactor.now)
        manager.linkConnected(self)
        armSilenceCheck()
        setUpBattery()
        readDeviceInformation()
    }

    // MARK: Silence and interruptions

    private var silenceTimeout: TimeSpan { manager.options.silenceTimeout }
    private var lastReceived: MonotonicTime { stream?.lastReceived ?? lastValueReceived }

    /// One check a `silenceTimeout` after the last notification (not a timer per packet).
    private func armSilenceCheck() {
        stateTimer?.cancel()
        stateTimer = reactor.schedule(at: lastReceived + silenceTimeout) { [weak self] in
            guard let self else { return }
            stateTimer = nil
            checkStream()
        }
    }

    private func checkStream() {
        // What is queued has arrived: read it before judging (the loop may have been late).
        stream?.readQueued()
        switch state {
        case .streaming:
            if reactor.now - lastReceived >= silenceTimeout {
                interrupt("no notification for \(silenceTimeout)", bluezReportsDisconnect: false)
            } else {
                armSilenceCheck()
            }
        case .interrupted:
            if let interruptedAt, lastReceived > interruptedAt {
                resume()
            } else {
                lost("nothing arrived for \(silenceTimeout) after the interruption")
            }
        default:
            break
        }
    }

    /// Releases everything at once and reports a disconnect, but keeps reading. After
    /// BlueZ's `Connected=false` the next `silenceTimeout` decides (`checkStream`);
    /// after a silence the next notification resumes the stream, with no timer meanwhile.
    private func interrupt(_ reason: String, bluezReportsDisconnect: Bool) {
        // Notifications already queued came before the interruption: still delivered.
        stream?.readQueued()
        guard state == .streaming else { return }
        state = .interrupted
        stream?.delivers = false
        log.info("\(address): \(reason): everything released; the stream decides")
        feed.linkChanged(connected: false, at: reactor.now)
        manager.linkDisconnected(self)
        stateTimer?.cancel()
        stateTimer = nil
        if bluezReportsDisconnect { awaitStream() }
    }

    /// Gives the stream `silenceTimeout` to show the link is up.
    private func awaitStream() {
        let now = reactor.now
        interruptedAt = now
        stateTimer?.cancel()
        stateTimer = reactor.schedule(at: now + silenceTimeout) { [weak self] in
            guard let self else { return }
            stateTimer = nil
            checkStream()
        }
    }

    /// A notification read while interrupted: after a silence, the link is up, and this
    /// notification is the stream's first again (delivered, not dropped: it may hold a press).
    /// After `Connected=false` it is dropped; the end of the `silenceTimeout` decides.
    private func notificationWhileInterrupted() {
        if state == .interrupted, interruptedAt == nil { resume() }
    }

    /// Notifications kept coming through the interruption: the link is up.
    private func resume() {
        state = .streaming
        interruptedAt = nil
        stream?.delivers = true
        log.info("\(address): the stream went on; connected again")
        feed.linkChanged(connected: true, at: reactor.now)
        manager.linkConnected(self)
        armSilenceCheck()
    }

    // MARK: Battery and device information

    /// BlueZ's battery plugin claims the Battery Service and shows its level
    /// as `org.bluez.Battery1.Percentage` on the device instead of exporting 2A19.
    private var pluginBatteryPercentage: Int? {
        devicePath.flatMap { client.cache.properties($0, BlueZNames.battery)?["Percentage"]?.integer }
    }

    /// The device's `Battery1` appeared or changed.
    func batteryPluginChanged() {
        guard state == .streaming, batteryPath == nil, let percent = pluginBatteryPercentage else { return }
        feed.batteryChanged(percent: percent, at: reactor.now)
    }

    private func setUpBattery() {
        guard let battery = characteristic(DaydreamGATT.batteryLevelUUID) else {
            // No 2A19 exported: BlueZ's battery plugin has it (it notifies through PropertiesChanged).
            batteryPluginChanged()
            return
        }
        batteryPath = battery.path
        readBattery()
        if battery.canNotify {
            client.setValueObserver(characteristic: battery.path) { [weak self] value in
                // BlueZ also signals the value a read fetched: the read's reply reports that one.
                guard let self, batteryReadsPending == 0 else { return }
                if let percent = value.first { feed.batteryChanged(percent: Int(percent), at: reactor.now) }
            }
            valueObserved.append(battery.path)
            sessions.start(battery.path) { [weak self, log] result in
                if case .failure(let error) = result {
                    log.info("\(self?.address ?? "?"): battery notifications refused (\(error)); polling")
                    self?.pollBattery()
                }
            }
        } else {
            pollBattery()
        }
    }

    private func pollBattery() {
        batteryTimer?.cancel()
        batteryTimer = reactor.schedule(after: manager.options.batteryPollInterval) { [weak self] in
            self?.readBattery()
            self?.pollBattery()
        }
    }

    /// Reads the battery level; the feed's consumers hear it when it arrives.
    func readBattery() {
        guard state == .streaming else { return }
        guard let path = batteryPath else {
            batteryPluginChanged()
            return
        }
        batteryReadsPending += 1
        let attempt = generation
        client.readValue(characteristic: path) { [weak self] result in
            guard let self, attempt == generation else { return }
            batteryReadsPending -= 1
            switch result {
            case .success(let value):
                if let percent = value.first { feed.batteryChanged(percent: Int(percent), at: reactor.now) }
            case .failure(let error):
                log.info("\(address): battery read failed: \(error)")
            }
        }
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

    // MARK: Loss

    /// The link is gone: release everything, report the disconnect (every held
    /// button released, handlers called), undo the StartNotify sessions (unless
    /// `sessionsGone`: bluetoothd or the device's objects went away), and try again
    /// later when `retry`. The backoff restarts from its first delay only when
    /// the stream had held for `stableStreamDuration`.
    func lost(_ reason: String, retry: Bool = true, sessionsGone: Bool = false) {
        generation += 1
        subscriptionRequested = false
        let previous = state
        let wasActive = state != .idle
        state = .idle
        notifyMethod = nil
        stateTimer?.cancel()
        stateTimer = nil
        interruptedAt = nil
        if let streamStarted, reactor.now - streamStarted >= manager.options.stableStreamDuration {
            backoff.reset()
        }
        streamStarted = nil
        stream?.close()
        stream = nil
        for path in valueObserved { client.setValueObserver(characteristic: path, nil) }
        valueObserved.removeAll()
        if sessionsGone { sessions.forgetAll() } else { sessions.stopAll() }
        batteryTimer?.cancel()
        batteryTimer = nil
        batteryPath = nil
        batteryReadsPending = 0
        if !retry {
            retryTimer?.cancel()
            retryTimer = nil
        }
        if previous == .streaming {
            log.info("\(address): disconnected: \(reason)")
            feed.linkChanged(connected: false, at: reactor.now)
            manager.linkDisconnected(self)
        } else if previous == .interrupted {
            log.info("\(address): disconnected: \(reason)")  // released and reported when interrupted
        } else if wasActive {
            log.debug("\(address): connection attempt ended: \(reason)")
        }
        if retry && wasActive { scheduleRetry() }
    }
}
