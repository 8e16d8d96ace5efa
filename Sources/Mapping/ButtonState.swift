import DaydreamProtocol
import Timebase

/// Where one controller button is in its life.
enum ButtonPhase: Sendable {
    /// Not pressed.
    case up
    /// Pressed, a chord member waiting (for the chord window) for the rest of a chord.
    case chordPending(since: MonotonicTime)
    /// Pressed, waiting for a tap/hold decision.
    case pending(since: MonotonicTime)
    /// Pressed and doing this held action until released; it stays down at least until
    /// `lastsUntil` (a tap time after its start, at the press or at a chord window's or a
    /// hold time's end, or after the write that pressed it when that was later), so a short
    /// press is not lost.
    case acting(Action, lastsUntil: MonotonicTime)
    /// Pressed, but swallowed until released (used by a chord, a finished hold, a d-pad click,
    /// or held through `releaseAll`).
    case consumed
}

/// The bindings of the active profile, prepared for the hot path.
struct PreparedProfile: Sendable {
    /// The profile itself.
    let profile: Profile
    /// The profile's chords and the configuration's profile-cycling chord, larger chords first.
    let chords: [Chord]
    /// Every button that belongs to some chord.
    let chordMembers: DaydreamButtons
    /// The hold time per button, indexed by `ControllerButton.rawValue`.
    let holdTimes: [TimeSpan]
    /// How long a tap holds its action down.
    let tapTime: TimeSpan
    /// How long a chord member waits for the rest of its chord.
    let chordWindow: TimeSpan
    /// Whether the air mouse can point in this profile: always on, or some binding or chord
    /// holds it. When it cannot, the engine skips it on every packet (what it would keep, the
    /// last sample's time, is forgotten whenever the profile changes).
    let airMouseCanPoint: Bool
    /// Whether `updateMotion` has work on every packet: the air mouse can point, or a tilt reads
    /// the orientation. Otherwise it runs only to take the zero (the first packet, a recentre).
    let motionReadsEveryPacket: Bool
    /// Whether the profile aims with the gyro (`profile.gyro` is set), and whether that gyro
    /// refines its bias during rests (`auto-calibrate`): read on every packet, kept here so the
    /// packet path does not copy the gyro's settings out of the profile to find out.
    let aimsWithGyro: Bool
    let refinesGyroBias: Bool

    init(_ profile: Profile, configuration: MappingConfiguration) {
        self.profile = profile
        var chords = profile.chords
        if let cycle = configuration.nextProfileChord, !chords.contains(where: { $0.buttons == cycle }) {
            chords.append(Chord(buttons: cycle, action: .nextProfile))
        }
        // Stable sort by member count, larger first.
        let ordered = chords.enumerated().sorted { lhs, rhs in
            let left = lhs.element.buttons.rawValue.nonzeroBitCount
            let right = rhs.element.buttons.rawValue.nonzeroBitCount
            return left != right ? left > right : lhs.offset < rhs.offset
        }
        self.chords = ordered.map(\.element).filter { $0.buttons.rawValue.nonzeroBitCount >= 2 }
        chordMembers = self.chords.reduce(into: DaydreamButtons()) { $0.formUnion($1.buttons) }
        holdTimes = ControllerButton.allCases.map { button in
            if case .tapHold(_, _, let time?) = profile[button] { return time }
            return configuration.holdTime
        }
        tapTime = configuration.tapTime
        chordWindow = configuration.chordWindow
        let bound = ControllerButton.allCases.flatMap { button -> [Action] in
            switch profile[button] {
            case .plain(let action): [action]
            case .tapHold(let tap, let hold, _): [tap, hold].compactMap { $0 }
            case nil: []
            }
        }
        airMouseCanPoint = profile.airMouse.always || (bound + self.chords.map(\.action)).contains(.airMouse)
        motionReadsEveryPacket = airMouseCanPoint || profile.tilt != nil || profile.gyro != nil
        aimsWithGyro = profile.gyro != nil
        refinesGyroBias = profile.gyro?.autoCalibrate == true
    }
}

/// A tap's action, pressed and waiting for its release at `due` (the tap time after the press).
struct PendingTap: Sendable {
    var action: Action
    var due: MonotonicTime
    /// Pressed in the current `update` or `advance`: `due` moves to a tap time after the write
    /// once the caller says when that was (`MappingEngine.startsWritten(at:)`).
    var awaitsWrite = false
}

/// A chord that fired and holds its action until one of its members is released.
struct ActiveChord: Sendable {
    var members: DaydreamButtons
    var action: Action
}

/// A profile change asked for by an action; carried out once the current snapshot's buttons are handled.
enum ProfileRequest: Sendable {
    case next
    case previous
    case named(String)
}
