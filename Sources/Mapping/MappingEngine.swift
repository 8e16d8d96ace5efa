import DaydreamProtocol
import EventVocabulary
import Timebase

/// Something the engine did that the bridge may want to log.
public enum MappingNotice: Hashable, Sendable {
    /// The active profile changed (by chord, action or `switchProfile`).
    case profileChanged(from: String, to: String)
    /// The tilt's zero was taken from the current orientation.
    case recentered
    /// The gyro's bias is being measured: hold the controller still.
    case gyroCalibrationStarted
    /// The bias measurement got this far (0...1; said at each tenth).
    case gyroCalibrationProgress(Double)
    /// The gyro's bias was measured (rad/s about each axis) and is applied from now on.
    case gyroCalibrated(Vector3)
    /// The controller moved while the bias was measured: nothing changed.
    case gyroCalibrationFailed
    /// `auto-calibrate` measured the gyro's bias (rad/s about each axis) during a rest and
    /// applies it from now on, in place of the stored one (said at most once a second of rest).
    case gyroBiasRefined(Vector3)
}

/// The pure mapping engine: controller snapshots and the time in, output events and the next deadline out.
///
/// It reads no clock and touches no file: time comes in as a parameter, events go into the
/// caller's `OutputBuffer`. After `update` and `advance`, arm a timer for `nextDeadline` and call
/// `advance(to:)` when it fires. The update path allocates nothing in steady state.
///
/// Buttons:
/// - a plain binding acts on press and releases with the button, at once;
/// - a tap/hold binding waits: released before its hold time it taps (at the release time its
///   action is pressed, `SYN_REPORT`, and released a tap time later, `SYN_REPORT`, from
///   `advance(to:)`, so a game that reads the buttons once a frame sees it); still down at the
///   hold time (exactly, from `advance(to:)`) the hold acts and lasts until the button is released;
/// - combinations press in order and release in reverse order;
/// - a key pressed by two bindings at once goes up only when both let go; a key tapped again
///   while its last tap is still down goes up first, in a frame of its own.
///
/// Chords: a button that belongs to a chord of the active profile (or to the configuration's
/// profile-cycling chord) first waits the chord window. The chord fires when all its members
/// are down and still in their windows; its members are then swallowed until released, and a
/// held chord action is released when the first member goes up. A member released within its
/// window taps its own binding (a plain binding taps too); one still down alone at the end of
/// its window acts as itself from then on: a plain binding is pressed and held until release,
/// a tap/hold binding goes on waiting for its hold time (counted from the press). It can then
/// no longer join a chord. When one snapshot completes several chords, larger chords win,
/// then the one listed first.
///
/// Every button still down when everything is released (disconnect, profile switch, reload)
/// is swallowed until it goes up, and every tap still down is released with the rest, so
/// nothing acts twice and nothing sticks.
///
/// Noncopyable: its output state owns its tables (see `OutputState`).
public struct MappingEngine: ~Copyable, Sendable {
    /// The configuration in force.
    public private(set) var configuration: MappingConfiguration
    /// The devices the bridge must create for this configuration.
    public private(set) var capabilities: Capabilities

    var prepared: PreparedProfile {
        didSet {
            // Only replaced whole (a switch or a reload), never changed in place on the packet path.
            if prepared.profile.pointer != oldValue.profile.pointer { pointer.filtersNeedRestart = true }
            if prepared.profile.gyro != oldValue.profile.gyro { motion.gyro = Self.gyroAim(for: prepared.profile) }
        }
    }
    var profileIndex: Int
    var output: OutputState
    var phases: [ButtonPhase]
    var activeChords: [ActiveChord]
    var pendingTaps: [PendingTap]
    /// Buttons whose held action started in the current `update` or `advance`, not yet written.
    var startsAwaitingWrite: DaydreamButtons = []
    /// True when the current `update` or `advance` started an action whose tap-time floor should
    /// count from the write that presses it: call `startsWritten(at:)` after writing the events.
    public internal(set) var hasStartsAwaitingWrite = false
    /// What `nextDeadline` answers, kept by `refreshDeadline()`.
    var earliestDeadline: MonotonicTime?
    var lastButtons: DaydreamButtons = []
    var airMouseHolds = 0
    var request: ProfileRequest?
    var recenterRequested = false
    var notices: [MappingNotice] {
        didSet { hasNotices = !notices.isEmpty }
    }
    /// True when `takeNotices()` has something to return. Stored, so a caller in another module
    /// reads it in place on every packet (a computed getter there takes a copy of the engine).
    public private(set) var hasNotices = false
    var touchpad = TouchpadState()
    var motion = MotionState()
    /// The gyro's measured bias (rad/s), taken off the rate before aiming.
    public internal(set) var gyroBias = Vector3.zero
    /// The bias measurement in progress.
    var calibration: GyroCalibrationRun?
    /// The bias `auto-calibrate` measured, nil until it has (or since a bias was set another way).
    public internal(set) var refinedGyroBias: Vector3?
    /// `auto-calibrate`'s watch for rests.
    var autoCalibration = GyroAutoCalibrationRun()
    /// The motion sensor's `MSC_TIMESTAMP`, kept across releases so it never goes back.
    var motionClock = MotionSensorClock()
    /// The absolute pointer's filters.
    var pointer = PointerState()

    /// An engine in the named profile (or, when nil or unknown, the configuration's starting profile).
    /// A configuration without profiles maps nothing.
    public init(configuration: MappingConfiguration, profileName: String? = nil) {
        self.configuration = configuration
        capabilities = configuration.capabilities
        let index = Self.profileIndex(in: configuration, preferring: profileName)
        profileIndex = index ?? 0
        prepared = PreparedProfile(Self.profile(at: index, in: configuration), configuration: configuration)
        output = OutputState(capabilities: capabilities)
        phases = Array(repeating: .up, count: ControllerButton.allCases.count)
        activeChords = []
        activeChords.reserveCapacity(4)
        pendingTaps = []
        pendingTaps.reserveCapacity(ControllerButton.allCases.count)
        notices = []
        notices.reserveCapacity(4)
        motion.gyro = Self.gyroAim(for: prepared.profile)
    }

    /// A fresh gyro aim for `profile`'s settings (the defaults without a gyro): made when the
    /// profile is, not compared on every packet.
    static func gyroAim(for profile: Profile) -> GyroAim {
        GyroAim(settings: profile.gyro ?? GyroSettings())
    }

    /// The active profile's name ("" when the configuration has none).
    public var profileName: String { prepared.profile.name }

    /// The active profile.
    public var profile: Profile { prepared.profile }

    /// The earliest time `advance(to:)` has work to do, or nil when nothing is waiting.
    public var nextDeadline: MonotonicTime? { earliestDeadline }

    /// Recomputes `earliestDeadline` from the buttons' phases and the taps still down; called
    /// whenever those change (so the packet path reads one stored value instead).
    mutating func refreshDeadline() {
        var earliest: MonotonicTime?
        for index in phases.indices {
            let deadline: MonotonicTime
            switch phases[index] {
            case .chordPending(let since): deadline = since + prepared.chordWindow
            case .pending(let since): deadline = since + prepared.holdTimes[index]
            case .up, .acting, .consumed: continue
            }
            if earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
        }
        for tap in pendingTaps where earliest.map({ tap.due < $0 }) ?? true {
            earliest = tap.due
        }
        earliestDeadline = earliest
    }

    /// True when no key is down and every axis is at rest.
    public var isIdle: Bool { output.isIdle }

    /// Maps a new controller snapshot taken at `time`; deadlines up to `time` are handled first.
    /// One frame (`SYN_REPORT` per changed device) ends the snapshot's events; a key tapped
    /// again while its last tap is down adds a frame for its release.
    public mutating func update(_ input: ControllerInput, at time: MonotonicTime, into buffer: inout OutputBuffer) {
        advance(to: time, into: &buffer)
        updateButtons(input, at: time, into: &buffer)
        if request != nil {
            buffer.endFrame()
            carryOutRequest(at: time, into: &buffer)
        }
        updateTouchpad(input, at: time, into: &buffer)
        if prepared.motionReadsEveryPacket || recenterRequested || motion.zero == nil {
            updateMotion(input, at: time, into: &buffer)
        }
        if prepared.profile.motionSensors { updateMotionSensors(input, at: time, into: &buffer) }
        if let pointer = prepared.profile.pointer { updatePointer(pointer, input, at: time, into: &buffer) }
        if calibration != nil {
            measureGyroBias(input, at: time)
        } else if prepared.refinesGyroBias {
            refineGyroBias(input, at: time)
        }
        output.flushRelative(into: &buffer)
        buffer.endFrame()
    }

    /// Handles deadlines (chord windows, hold thresholds, tap releases) up to `time`, in their own frame.
    public mutating func advance(to time: MonotonicTime, into buffer: inout OutputBuffer) {
        advanceButtons(to: time, into: &buffer)
        buffer.endFrame()
        if request != nil { carryOutRequest(at: time, into: &buffer) }
    }

    /// Releases every key and button that is down and centres every axis, then `SYN_REPORT`
    /// per device. Buttons still physically held are ignored until they are released.
    public mutating func releaseAll(into buffer: inout OutputBuffer) {
        buffer.endFrame()
        // Held actions first, so combinations go up in reverse order; then whatever else is down.
        for chord in activeChords.reversed() { endHeld(chord.action, into: &buffer) }
        activeChords.removeAll(keepingCapacity: true)
        for tap in pendingTaps.reversed() { endHeld(tap.action, into: &buffer) }
        pendingTaps.removeAll(keepingCapacity: true)
        for button in ControllerButton.allCases.reversed() {
            if case .acting(let action, _) = phases[button.rawValue] { endHeld(action, into: &buffer) }
            phases[button.rawValue] = lastButtons.contains(button.mask) ? .consumed : .up
        }
        airMouseHolds = 0
        startsAwaitingWrite = []
        hasStartsAwaitingWrite = false
        request = nil
        recenterRequested = false
        touchpad.reset()
        motion.resetGesture()
        output.releaseEverything(into: &buffer)
        buffer.endFrame()
        refreshDeadline()
    }

    /// Takes the orientation of the next motion packet as the tilt's zero, as the `"recenter"`
    /// action does (the D-Bus API's `Recenter()`).
    public mutating func requestRecenter() {
        recenterRequested = true
    }

    /// Releases everything, then makes `name` the active profile. False (and nothing done) when no such profile.
    @discardableResult
    public mutating func switchProfile(to name: String, at time: MonotonicTime, into buffer: inout OutputBuffer) -> Bool {
        guard let index = configuration.profiles.firstIndex(where: { $0.name == name }) else { return false }
        activateProfile(at: index, into: &buffer)
        return true
    }

    /// Releases everything, then takes a new configuration, staying in the same profile when it
    /// still exists (else the new configuration's default). `capabilities` may change: the bridge
    /// compares it with its devices.
    public mutating func reload(_ configuration: MappingConfiguration, at time: MonotonicTime, into buffer: inout OutputBuffer) {
        releaseAll(into: &buffer)
        let oldName = profileName
        self.configuration = configuration
        capabilities = configuration.capabilities
        output = OutputState(capabilities: capabilities)
        let index = Self.profileIndex(in: configuration, preferring: oldName)
        profileIndex = index ?? 0
        prepared = PreparedProfile(Self.profile(at: index, in: configuration), configuration: configuration)
        if profileName != oldName { notices.append(.profileChanged(from: oldName, to: profileName)) }
    }

    /// The notices since the last call, oldest first.
    public mutating func takeNotices() -> [MappingNotice] {
        guard !notices.isEmpty else { return [] }
        let taken = notices
        notices.removeAll(keepingCapacity: true)
        return taken
    }

    // MARK: Profiles

    mutating func carryOutRequest(at time: MonotonicTime, into buffer: inout OutputBuffer) {
        guard let request, !configuration.profiles.isEmpty else {
            self.request = nil
            return
        }
        self.request = nil
        let count = configuration.profiles.count
        switch request {
        case .next:
            activateProfile(at: (profileIndex + 1) % count, into: &buffer)
        case .previous:
            activateProfile(at: (profileIndex + count - 1) % count, into: &buffer)
        case .named(let name):
            if let index = configuration.profiles.firstIndex(where: { $0.name == name }) {
                activateProfile(at: index, into: &buffer)
            }
        }
    }

    mutating func activateProfile(at index: Int, into buffer: inout OutputBuffer) {
        releaseAll(into: &buffer)
        let oldName = profileName
        profileIndex = index
        prepared = PreparedProfile(configuration.profiles[index], configuration: configuration)
        notices.append(.profileChanged(from: oldName, to: profileName))
    }

    static func profileIndex(in configuration: MappingConfiguration, preferring name: String?) -> Int? {
        if let name, let index = configuration.profiles.firstIndex(where: { $0.name == name }) { return index }
        guard let start = configuration.startingProfileName(forController: nil) else { return nil }
        return configuration.profiles.firstIndex(where: { $0.name == start })
    }

    static func profile(at index: Int?, in configuration: MappingConfiguration) -> Profile {
        guard let index else { return Profile(name: "") }
        return configuration.profiles[index]
    }
}
