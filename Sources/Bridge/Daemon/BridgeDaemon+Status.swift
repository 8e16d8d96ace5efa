import BridgeConfig
import DaydreamCore
import SystemIntegration

/// What the daemon shows, all of it read from `state`: the status lines (`status`, systemd's
/// STATUS=), each controller's record (the D-Bus API), the profile new controllers start in; and
/// how the state is told: each controller's record and the bridge's, as they are now.
extension BridgeDaemon {
    /// The profile every controller was last switched to, which new controllers start in.
    public var activeProfile: String {
        state.bridge.activeProfile ?? ""
    }

    /// One line per controller (or for the devices waiting for one); none after shutdown.
    public var statusLines: [String] {
        guard !registry.slots.isEmpty else { return [] }
        let controllers = state.controllers
        guard !controllers.isEmpty else { return ["devices ready, no controller yet"] }
        return controllers.map(Self.statusLine)
    }

    /// The status for systemd: every controller and its profile.
    public var statusLine: String {
        let problemText = state.bridge.problem.map { "; \($0)" } ?? ""
        let controllers = state.controllers
        guard !controllers.isEmpty else {
            return "waiting for a controller (profile \(state.bridge.activeProfile ?? "none"))" + problemText
        }
        return controllers.map(Self.statusLine).joined(separator: "; ") + problemText
    }

    /// `C0:DD:EE:00:00:01: gamepad, connected` (`lent` for one lent to another program), for
    /// STATUS= and `status`.
    static func statusLine(_ controller: ControllerStatus) -> String {
        let link = controller.isLent ? "lent" : controller.isConnected ? "connected" : "disconnected"
        return "\(controller.address): \(controller.profile), \(link)"
    }

    /// Whether `change` changes the status line (systemd hears only those).
    static func changesStatusLine(_ change: BridgeState.Change) -> Bool {
        switch change {
        case .controllerAdded: true
        case .controller(_, let fields): !fields.isDisjoint(with: [.connected, .profile, .lent])
        case .bridge(let fields): !fields.isDisjoint(with: [.activeProfile, .problem])
        }
    }

    /// The DSU server's address, drops and clients, one line each; `DSU off` without one.
    public var dsuStatusLines: [String] { dsuServer?.status.lines ?? ["DSU off"] }

    /// One line per controller: its gyro bias, or that it has none.
    public var calibrationLines: [String] {
        calibrations.lines(for: registry.addresses)
    }

    /// What each controller seen so far shows: its address, name, link, battery, firmware,
    /// profile and packet counts, in the order they were first seen.
    public var controllers: [ControllerStatus] { state.controllers }

    /// Tells the state the record of the controller at `address` as it is now.
    func recordState(of address: String) {
        guard let slot = registry.slots.first(where: { $0.address == address }) else { return }
        recordState(of: slot)
    }

    /// Tells the state `slot`'s controller's record as it is now (none before a controller took it).
    func recordState(of slot: ControllerSlot) {
        guard let address = slot.address, let session = slot.session else { return }
        state.set(ControllerStatus(
            address: address, name: slot.feed?.name, isConnected: slot.feed?.isConnected == true,
            batteryPercent: slot.feed?.batteryPercent, firmware: slot.feed?.deviceInformation.firmwareVersion,
            profile: session.profileName, statistics: DDControllerStatistics(),
            gyroBias: session.refinedGyroBias ?? calibrations.biases[address.uppercased()], isCalibrating: session.gyroCalibrationProgress != nil,
            isLent: slot.feed?.isLent == true))
    }

    /// Tells the state the bridge's record as it is now.
    func recordBridgeState() {
        state.set(BridgeState.Bridge(
            profiles: configuration.profiles.map(\.name), identity: configuration.gamepadIdentity.rawValue,
            activeProfile: policy.activeProfile(in: configuration), focus: policy.focused, problem: problem,
            reload: state.bridge.reload))
    }

    /// Tells the state what the config's reading just did (a new number, so each one is heard).
    func recordReload(_ outcome: ConfigReloader.Outcome) {
        var bridge = state.bridge
        bridge.reload = ConfigReload(number: (bridge.reload?.number ?? 0) + 1, outcome)
        state.set(bridge)
    }
}
