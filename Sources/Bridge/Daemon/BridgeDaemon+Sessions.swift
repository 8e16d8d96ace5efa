import Mapping
import VirtualDevice

/// Each controller's session: made in the profile new controllers start in, with its measured
/// bias, and heard: its profile switches, recentring and calibration go to the log, the `watch`
/// streams, the calibrations and the status.
extension BridgeDaemon {
    /// A new session for the controller at `address`, writing to `output`, in the starting
    /// profile, with the bias measured for it; what it says goes to the log, the watch, the
    /// calibrations and the status.
    func makeSession(address: String, output: any OutputSink) -> ControllerSession {
        let session = ControllerSession(
            address: address, configuration: configuration, profileName: policy.override, output: output, scheduler: reactor
        )
        if let bias = calibrations.biases[address.uppercased()] { session.setGyroBias(bias) }
        session.noticeHandler = { [weak self] session, notice in self?.heard(notice, from: session, address: address) }
        session.linkHandler = { [weak self] session, connected in
            Logger.notice("\(session.address ?? "controller"): \(connected ? "connected" : "disconnected; everything released")")
            if !connected, session.gyroCalibrationProgress != nil {
                session.cancelGyroCalibration()
                self?.calibrations.disconnected(address)
            }
            self?.updateStatus()
        }
        session.readingHandler = { [weak self] _ in self?.changeHandler?() }
        return session
    }

    private func heard(_ notice: MappingNotice, from session: ControllerSession, address: String) {
        switch notice {
        case .profileChanged(let from, let to):
            Logger.notice("\(session.address ?? "controller"): profile \(from) -> \(to)")
            if registry.watch.isWatching { registry.watch.send(address, "profile \(to)", at: reactor.now) }
            policy.sessionSwitched()
            updateStatus()
        case .recentered:
            Logger.info("\(session.address ?? "controller"): tilt recentred")
        case .gyroCalibrationStarted:
            Logger.notice("\(address): measuring the gyro's bias: hold the controller still")
            changeHandler?()
        case .gyroCalibrationProgress(let fraction):
            calibrations.progress(fraction, for: address)
        case .gyroCalibrationFailed:
            calibrations.moved(address)
            changeHandler?()
        case .gyroCalibrated(let bias):
            calibrations.measured(bias, for: address)
            changeHandler?()
        }
    }
}
