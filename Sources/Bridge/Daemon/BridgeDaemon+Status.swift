import DaydreamCore
import SystemIntegration

/// What the daemon shows: the status lines (`status`, systemd's STATUS=), each controller's
/// `ControllerStatus` (the D-Bus API), the profile new controllers start in, the DSU server.
extension BridgeDaemon {
    /// The profile every controller was last switched to, which new controllers start in.
    public var activeProfile: String {
        policyActiveProfile ?? ""
    }

    /// One line per controller (or for the devices waiting for one).
    public var statusLines: [String] { registry.statusLines }

    /// The status for systemd: every controller and its profile.
    public var statusLine: String {
        let withControllers = registry.withControllers
        let problemText = problem.map { "; \($0)" } ?? ""
        guard !withControllers.isEmpty else {
            return "waiting for a controller (profile \(policyActiveProfile ?? "none"))" + problemText
        }
        return withControllers.map(\.statusLine).joined(separator: "; ") + problemText
    }

    /// The DSU server's address, drops and clients, one line each; `DSU off` without one.
    public var dsuStatusLines: [String] { dsuServer?.status.lines ?? ["DSU off"] }

    /// One line per controller: its gyro bias, or that it has none.
    public var calibrationLines: [String] {
        calibrations.lines(for: registry.addresses)
    }

    /// What each controller seen so far shows: its address, name, link, battery, firmware,
    /// profile and packet counts, in the order they were first seen.
    public var controllers: [ControllerStatus] {
        registry.slots.compactMap { slot in
            guard let address = slot.address, let session = slot.session else { return nil }
            return ControllerStatus(
                address: address, name: slot.feed?.name, isConnected: slot.feed?.isConnected == true,
                batteryPercent: slot.feed?.batteryPercent, firmware: slot.feed?.deviceInformation.firmwareVersion,
                profile: session.profileName, statistics: slot.feed?.statistics ?? DDControllerStatistics(),
                gyroBias: calibrations.biases[address.uppercased()], isCalibrating: session.gyroCalibrationProgress != nil)
        }
    }

    /// Tells systemd and the D-Bus API that what they show may have changed.
    func updateStatus() {
        let line = statusLine
        notify { try $0.status(line) }
        changeHandler?()
    }
}
