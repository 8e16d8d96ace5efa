import DaydreamCore
import DaydreamProtocol
import EventVocabulary
import Mapping
import Timebase
import VirtualDevice

/// One controller's mapping: its engine, its output, and the one timer for the engine's next deadline.
///
/// A `ControllerConsumer`: attached to a controller's `ControllerFeed` (`feed.attach(session)`), it gets each packet
/// the feed decoded (no controller model runs, so no long-press timer is set). The packet path is
/// `receive(_:at:)`: `update`, write, re-arm. It allocates nothing in steady state (the buffer keeps
/// its capacity; the timer is only replaced when the deadline changes) and takes no lock: everything
/// runs on the main thread.
///
/// A write that fails is logged (the first failure of a run in full, repeats at debug level so a
/// broken device cannot flood the journal); the events after it are still written.
///
/// Every change of state that could leave input down (disconnect, profile switch, reload, exit)
/// releases everything and writes that, with its `SYN_REPORT`s, before doing anything else.
@MainActor
public final class ControllerSession: ControllerConsumer {
    /// The controller's address, when it has one (replays of anonymous recordings have none).
    public let address: String?
    /// Where the events go: the controller's devices (uinput, a pipe for `run --write-events`,
    /// printed lines for `run --print`), a test's own.
    public let output: any OutputSink
    /// Called with what the engine did that deserves a log line (profile changes, recentring).
    public var noticeHandler: (@MainActor (ControllerSession, MappingNotice) -> Void)?
    /// Called when the attached controller's link comes up or goes down, after a drop was released.
    public var linkHandler: (@MainActor (ControllerSession, Bool) -> Void)?
    /// Called when the controller's battery level or Device Information was read.
    public var readingHandler: (@MainActor (ControllerSession) -> Void)?
    /// Sees each frame of output events before the devices do (a `watch` stream); nil, the
    /// usual case, costs a packet one check. Unchecked like `engine`: set only between packets.
    @exclusivity(unchecked) public var eventTap: (@MainActor (UnsafeBufferPointer<OutputEvent>, MonotonicTime) -> Void)?

    // Every packet modifies both; unchecked, they skip the run-time exclusivity checks (about a
    // quarter of the packet path's instructions with them). No access can overlap another: both
    // are private, the engine is pure (it calls nothing back), and the output gets a copy of the
    // events, not access to the buffer.
    @exclusivity(unchecked) private var engine: MappingEngine
    @exclusivity(unchecked) private var buffer = OutputBuffer()
    private let scheduler: any DeadlineScheduler
    private var timer: ScheduledTimer?
    // Compared on every packet; unchecked like `engine`: private, and read or set only in
    // `rearm`, `stop` and the timer's action, none of which can run inside another.
    @exclusivity(unchecked) private var armedDeadline: MonotonicTime?
    /// Whether the last write failed, so the next that works is logged.
    private var failing = false

    /// A session in the controller's starting profile (`profileName` when given and known; else by
    /// address from the configuration, else the default profile).
    public init(
        address: String?, configuration: MappingConfiguration, profileName: String? = nil,
        output: any OutputSink, scheduler: any DeadlineScheduler
    ) {
        self.address = address
        self.output = output
        self.scheduler = scheduler
        let starting = profileName.flatMap { configuration.profile(named: $0)?.name }
            ?? configuration.startingProfileName(forController: address)
        engine = MappingEngine(configuration: configuration, profileName: starting)
    }

    /// The active profile's name.
    public var profileName: String { engine.profileName }
    /// The configuration in force.
    public var configuration: MappingConfiguration { engine.configuration }
    /// The devices this configuration needs.
    public var capabilities: Capabilities { engine.capabilities }
    /// The engine's next deadline (for tests and status).
    public var nextDeadline: MonotonicTime? { engine.nextDeadline }

    // Nothing holds this session weakly (the timer's action holds it unowned, and `deinit`
    // cancels the timer): an object that is weakly referenced gets a side table, and then
    // every retain and release of it, one pair a packet in `ControllerFeed.receive`, takes the
    // runtime's slow path.
    isolated deinit {
        timer?.cancel()
    }

    /// Maps one packet received at `time`: the fast path.
    public func receive(_ packet: DaydreamPacket, at time: MonotonicTime) {
        engine.update(ControllerInput(packet: packet), at: time, into: &buffer)
        finish(at: time)
    }

    /// A disconnect releases everything before `linkHandler` hears it.
    public func linkChanged(connected: Bool, at time: MonotonicTime) {
        if !connected { releaseAll(at: time) }
        linkHandler?(self, connected)
    }

    /// Tells `readingHandler` (lent or taken back, for the status and the D-Bus API); the link's
    /// report that comes with a lending is what releases everything.
    public func lendingChanged(lent: Bool, at time: MonotonicTime) {
        readingHandler?(self)
    }

    /// Tells `readingHandler` (the battery level, for the D-Bus API).
    public func batteryChanged(percent: Int, at time: MonotonicTime) {
        readingHandler?(self)
    }

    /// Tells `readingHandler` (the firmware version, for the D-Bus API).
    public func deviceInformationChanged(_ information: ControllerDeviceInformation) {
        readingHandler?(self)
    }

    /// Takes the orientation of the next motion packet as the tilt's zero.
    public func recenter() {
        engine.requestRecenter()
    }

    /// Starts measuring the gyro's bias (the controller held still); a notice says how it ended.
    public func calibrateGyro() {
        engine.startGyroCalibration()
        reportNotices()
    }

    /// Stops a bias measurement without a result (the controller went away).
    public func cancelGyroCalibration() {
        engine.cancelGyroCalibration()
    }

    /// Applies a bias measured before.
    public func setGyroBias(_ bias: Vector3) {
        engine.setGyroBias(bias)
    }

    /// How far a bias measurement is (0...1), nil when none runs.
    public var gyroCalibrationProgress: Double? { engine.gyroCalibrationProgress }

    /// The bias `auto-calibrate` measured during a rest and applies, nil when none.
    public var refinedGyroBias: Vector3? { engine.refinedGyroBias }

    /// Runs the engine's deadlines up to `time` (the timer calls this).
    public func advance(to time: MonotonicTime) {
        engine.advance(to: time, into: &buffer)
        finish(at: time)
    }

    /// Releases every key and button and centres every axis, then `SYN_REPORT`; written at once.
    public func releaseAll(at time: MonotonicTime) {
        engine.releaseAll(into: &buffer)
        finish(at: time)
    }

    /// Releases everything, then switches to `name`. False (nothing done) when there is no such profile.
    @discardableResult
    public func switchProfile(to name: String, at time: MonotonicTime) -> Bool {
        guard engine.configuration.profile(named: name) != nil else { return false }
        engine.releaseAll(into: &buffer)
        flush(at: time)
        let switched = engine.switchProfile(to: name, at: time, into: &buffer)
        finish(at: time)
        return switched
    }

    /// Releases everything, then switches to the next profile in configuration order (wrapping);
    /// returns the new profile's name.
    @discardableResult
    public func cycleProfile(at time: MonotonicTime) -> String {
        let names = engine.configuration.profiles.map(\.name)
        guard let index = names.firstIndex(of: engine.profileName), names.count > 1 else { return engine.profileName }
        let next = names[(index + 1) % names.count]
        switchProfile(to: next, at: time)
        return next
    }

    /// Releases everything, then takes a new configuration (staying in the same profile when it still exists).
    public func reload(_ configuration: MappingConfiguration, at time: MonotonicTime) {
        engine.releaseAll(into: &buffer)
        flush(at: time)
        engine.reload(configuration, at: time, into: &buffer)
        finish(at: time)
    }

    /// Releases everything and stops the timer: the last thing before the devices go away.
    public func stop(at time: MonotonicTime) {
        releaseAll(at: time)
        timer?.cancel()
        timer = nil
        armedDeadline = nil
    }

    // MARK: Output and timer

    // The steps every packet takes are inlined into `receive`: each was a call whose entry and
    // exit cost more than its work on a packet that changes nothing.

    @inline(__always)
    private func finish(at time: MonotonicTime) {
        flush(at: time)
        // Read after the write: a press the loop was slow to write still lasts a tap time on the device.
        if engine.hasStartsAwaitingWrite { engine.startsWritten(at: scheduler.now) }
        reportNotices()
        rearm()
    }

    @inline(__always)
    private func flush(at time: MonotonicTime) {
        guard !buffer.isEmpty else { return }
        if let eventTap { buffer.withEvents { eventTap($0, time) } }
        if let error = Self.send(&buffer, to: output, at: time) {
            report(error)
        } else if failing {
            failing = false
            Logger.info("\(output.label): writing to the virtual devices works again")
        }
    }

    /// Sends the buffer's events and empties it, in place (see `nextDeadline(of:)`): from the
    /// stored property, the events would be retained and released around the call.
    private static func send(
        _ buffer: inout OutputBuffer, to output: any OutputSink, at time: MonotonicTime
    ) -> VirtualDeviceError? {
        defer { buffer.removeAll() }
        do {
            try buffer.withEvents { (events) throws(VirtualDeviceError) in try output.send(events, at: time) }
            return nil
        } catch {
            return error
        }
    }

    /// Logs a failed write: the first of a run in full, repeats at debug level.
    private func report(_ error: VirtualDeviceError) {
        if failing {
            Logger.debug("\(output.label): \(error)")
        } else {
            failing = true
            Logger.error("\(output.label): \(error)")
        }
    }

    @inline(__always)
    private func reportNotices() {
        // Most packets have none, and taking an empty array still costs a call and a release.
        guard engine.hasNotices else { return }
        let notices = engine.takeNotices()
        guard let noticeHandler else { return }
        for notice in notices { noticeHandler(self, notice) }
    }

    /// Reads the engine's next deadline in place. Read straight off the stored property, the
    /// getter would run on a copy of the whole engine (a retain and a release of everything
    /// it holds, on every packet); through `inout` it runs on the engine itself.
    private static func nextDeadline(of engine: inout MappingEngine) -> MonotonicTime? {
        engine.nextDeadline
    }

    /// Points the one timer at the engine's next deadline; untouched while the deadline stays the same.
    /// The check is inlined into the packet path (most packets keep the deadline); the change is not.
    @inline(__always)
    private func rearm() {
        let deadline = Self.nextDeadline(of: &engine)
        guard deadline != armedDeadline else { return }
        retarget(at: deadline)
    }

    /// Cancels the timer and schedules one at `deadline`, or none when it is nil.
    @inline(never)
    private func retarget(at deadline: MonotonicTime?) {
        timer?.cancel()
        armedDeadline = deadline
        guard let deadline else {
            timer = nil
            return
        }
        timer = scheduler.schedule(at: deadline) { [unowned self] in
            self.armedDeadline = nil
            self.timer = nil
            self.advance(to: max(self.scheduler.now, deadline))
        }
    }
}
