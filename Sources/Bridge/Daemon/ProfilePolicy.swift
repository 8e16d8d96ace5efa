import BridgeConfig
import Mapping
import Timebase

/// Which profile each controller is in, and why: a switch by hand (a command, a chord), the
/// focused application's rules (`FocusFollower`), and the profile new controllers start in.
/// Every switch releases everything first (the session does).
@MainActor
final class ProfilePolicy {
    private let registry: ControllerRegistry
    /// The profile new controllers start in, when a command or the command line chose one.
    private(set) var override: String?
    private var follower = FocusFollower()
    /// True while the policy switches profiles itself (focus, reload): the sessions' notices of
    /// those switches are not switches by hand.
    private(set) var isSwitchingItself = false

    /// A policy for the controllers in `registry`, new ones starting in `profile` when given.
    init(registry: ControllerRegistry, profile: String?) {
        self.registry = registry
        override = profile
    }

    /// The application a desktop said has the focus, if any.
    var focused: FocusedApplication? { follower.focused }

    /// The profile every controller was last switched to, which new controllers start in.
    func activeProfile(in configuration: MappingConfiguration) -> String? {
        override ?? configuration.startingProfileName(forController: nil)
    }

    /// A session's engine switched by itself (a chord): the focus rules' memory gives way to it.
    func sessionSwitched() {
        if !isSwitchingItself { follower.switchedByHand() }
    }

    /// Switches every controller (or the one at `address`) to `name`; new controllers start in
    /// it too when no address is given.
    func switchProfile(to name: String, address: String?, in configuration: MappingConfiguration, at now: MonotonicTime)
        -> Result<Void, BridgeRefusal>
    {
        guard configuration.profile(named: name) != nil else {
            return .failure(.unknownProfile(name, profiles: configuration.profiles.map(\.name)))
        }
        return registry.sessions(for: address).map { targets in
            follower.switchedByHand()
            if address == nil { override = name }
            for target in targets { target.session.switchProfile(to: name, at: now) }
        }
    }

    /// Switches every controller (or one) to its next profile; the starting profile follows.
    func cycleProfile(address: String?, in configuration: MappingConfiguration, at now: MonotonicTime) -> Result<Void, BridgeRefusal> {
        registry.sessions(for: address).map { targets in
            follower.switchedByHand()
            for target in targets {
                let name = target.session.cycleProfile(at: now)
                if address == nil { override = name }
            }
            guard targets.isEmpty, address == nil else { return }
            let names = configuration.profiles.map(\.name)
            if let current = activeProfile(in: configuration), let index = names.firstIndex(of: current) {
                override = names[(index + 1) % names.count]
            }
        }
    }

    /// Takes the application a desktop says has the focus: switches every controller to the
    /// profile that lists it, or back to the profiles from before when none does.
    func focusChanged(to application: FocusedApplication, in configuration: MappingConfiguration, at now: MonotonicTime) {
        let decision = follower.focusChanged(to: application, in: configuration, current: snapshot)
        // One line per focus change, its ids and title escaped: a switch at the normal level, a
        // change that switches nothing only with -v (a desktop may send thousands a second).
        let title = application.title.isEmpty ? "" : " (\(LogText.escaped(application.title)))"
        let focus = "focus: \(LogText.escaped(application.name))\(title)"
        if case .stay = decision { Logger.debug("\(focus): no profile change") }
        carryOut(decision, because: focus, in: configuration, at: now)
    }

    /// A new configuration is about to run: the starting profile goes if it lacks it.
    func configurationChanging(to configuration: MappingConfiguration) {
        if let name = override, configuration.profile(named: name) == nil { override = nil }
    }

    /// A new configuration runs: the focus rules are applied again.
    func configurationReplaced(by configuration: MappingConfiguration, at now: MonotonicTime) {
        carryOut(follower.rulesChanged(in: configuration, current: snapshot), because: "new rules", in: configuration, at: now)
    }

    /// Runs `body` (a reload's session changes) as the policy's own switches, not by hand.
    func switchingItself(_ body: () -> Void) {
        isSwitchingItself = true
        defer { isSwitchingItself = false }
        body()
    }

    private var snapshot: FocusFollower.Snapshot {
        var controllers: [String: String] = [:]
        for slot in registry.slots {
            if let address = slot.address, let session = slot.session { controllers[address] = session.profileName }
        }
        return FocusFollower.Snapshot(starting: override, controllers: controllers)
    }

    private func carryOut(_ decision: FocusFollower.Decision, because reason: String, in configuration: MappingConfiguration, at now: MonotonicTime) {
        switchingItself {
            switch decision {
            case .stay:
                return
            case .switchTo(let name):
                Logger.info("\(reason): profile \(name)")
                override = name
                for slot in registry.slots { slot.session?.switchProfile(to: name, at: now) }
            case .restore(let snapshot):
                Logger.info("\(reason), which no profile lists: the profiles from before")
                override = snapshot.starting.flatMap { configuration.profile(named: $0) == nil ? nil : $0 }
                for slot in registry.slots {
                    guard let session = slot.session else { continue }
                    let name = slot.address.flatMap { snapshot.controllers[$0] }
                        ?? override ?? configuration.startingProfileName(forController: slot.address)
                    if let name, name != session.profileName { session.switchProfile(to: name, at: now) }
                }
            }
        }
    }
}
