import DaydreamCore

/// The command line's words for the library's problems: what is wrong and the command that cures
/// it. The library says what is wrong only; the daemon and the commands say these.
extension DaydreamControllerManager.Problem {
    /// One line: the problem and what to run.
    public var advice: String {
        switch self {
        case .bluetoothdMissing:
            "BlueZ is not running: start it with 'sudo systemctl start bluetooth' (waiting for it)"
        case .noAdapter:
            "no Bluetooth adapter: plug one in or check 'rfkill list' (waiting for one)"
        case .adapterOff(let name, let reason):
            "adapter \(name) is powered off or blocked by rfkill (\(reason)): "
                + "run 'rfkill unblock bluetooth' and 'bluetoothctl power on' (waiting for it)"
        case .staleBond(let address):
            "\(address) refused the stored pairing (stale bond): " + Self.pairAgain(address)
        case .bluetoothdStoppedWhileConnecting(let address):
            "bluetoothd stopped while connecting to \(address); if this repeats, the controller may have lost "
                + "its pairing (a reset, or paired elsewhere): " + Self.pairAgain(address)
        case .pairingFailed, .lookAlikeRemoved, .busLost:
            description
        }
    }

    private static func pairAgain(_ address: String) -> String {
        "run 'daydream-bridge forget \(address)', then 'daydream-bridge pair' with the controller's home button held"
    }
}

extension PairingError {
    /// One line: why pairing did not complete and, where a command helps, which.
    public var advice: String {
        switch cause {
        case .unknownDevice:
            "BlueZ does not know this device; run 'daydream-bridge scan' with the controller's home button held"
        case .problem(let problem):
            problem.advice
        case .notADaydreamController, .alreadyBeingPaired, .agentNotRegistered, .severalInRange, .wentAway:
            description
        }
    }
}

extension DaydreamControllerManager {
    /// Has the manager announce each new problem with the command line's advice, as a warning
    /// through its log.
    public func announceProblemsWithAdvice() {
        announceProblem = { [log] problem in log.warning(problem.advice) }
    }
}
