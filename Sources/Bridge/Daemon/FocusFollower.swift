import Mapping

/// Which profile the focused application calls for: the rules of `applications = [...]`.
///
/// When the focus moves to an application a profile lists, every controller switches to that
/// profile, and the profiles they had before are kept. When it moves to one no profile lists,
/// those come back (once: a second unlisted application changes nothing). A manual switch
/// (`profile NAME`, a chord, D-Bus) holds until the focus changes: it forgets what was kept, so
/// leaving the game does not undo it. Only a change of application counts: a new title does not.
struct FocusFollower {
    /// The daemon's profiles at one time: the one new controllers start in (nil: the
    /// configuration's) and each controller's.
    struct Snapshot: Equatable {
        var starting: String?
        var controllers: [String: String]
    }

    /// What to do about a focus change.
    enum Decision: Equatable {
        /// Nothing.
        case stay
        /// Switch every controller (and new ones) to this profile.
        case switchTo(String)
        /// Put back the profiles from before the last automatic switch.
        case restore(Snapshot)
    }

    /// The application with the focus, as last told.
    private(set) var focused: FocusedApplication?
    /// The profiles from before the last automatic switch; nil when none is in force.
    private(set) var kept: Snapshot?

    /// The focus moved to `application`; `current` is what the daemon runs now.
    mutating func focusChanged(to application: FocusedApplication, in configuration: MappingConfiguration, current: Snapshot) -> Decision {
        guard application.ids != focused?.ids else {
            focused = application
            return .stay
        }
        focused = application
        return decide(in: configuration, current: current)
    }

    /// The rules changed (a reload): decides again for the application that has the focus.
    mutating func rulesChanged(in configuration: MappingConfiguration, current: Snapshot) -> Decision {
        guard focused != nil else { return .stay }
        return decide(in: configuration, current: current)
    }

    /// A switch by hand: it holds until the focus changes, and leaving the application does not undo it.
    mutating func switchedByHand() {
        kept = nil
    }

    private mutating func decide(in configuration: MappingConfiguration, current: Snapshot) -> Decision {
        if let profile = configuration.profile(forApplication: focused?.ids ?? []) {
            if kept == nil { kept = current }
            let already = current.controllers.values.allSatisfy { $0 == profile.name }
                && (current.starting ?? configuration.startingProfileName(forController: nil)) == profile.name
            return already ? .stay : .switchTo(profile.name)
        }
        guard let snapshot = kept else { return .stay }
        kept = nil
        return .restore(snapshot)
    }
}
