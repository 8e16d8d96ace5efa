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
        sessionStarted(address: address.uppercased(), in: session.profileName)
        session.noticeHandler = { [weak self] session, notice in self?.heard(notice, from: session, address: address) }
        session.linkHandler = { [weak self] session, connected in
            Logger.notice("\(session.address ?? "controller"): \(connected ? "connected" : "disconnected; everything released")")
            if !connected, session.gyroCalibrationProgress != nil {
                session.cancelGyroCalibration()
                self?.calibrations.disconnected(address)
            }
            if connected { self?.connectedForProfileLending(address: address.uppercased(), profile: session.profileName) }
            self?.recordState(of: address)
        }
        session.readingHandler = { [weak self] _ in self?.recordState(of: address) }
        return session
    }

    private func heard(_ notice: MappingNotice, from session: ControllerSession, address: String) {
        switch notice {
        case .profileChanged(let from, let to):
            Logger.notice("\(session.address ?? "controller"): profile \(from) -> \(to)")
            policy.sessionSwitched()
            profileSwitched(address: address.uppercased(), from: from, to: to)
            recordState(of: address)
        case .recentered:
            Logger.info("\(session.address ?? "controller"): tilt recentred")
            headTracker?.recenter(address: address)
        case .gyroCalibrationStarted:
            Logger.notice("\(address): measuring the gyro's bias: hold the controller still")
            recordState(of: address)
        case .gyroCalibrationProgress(let fraction):
            calibrations.progress(fraction, for: address)
        case .gyroCalibrationFailed:
            calibrations.moved(address)
            recordState(of: address)
        case .gyroCalibrated(let bias):
            calibrations.measured(bias, for: address)
            recordState(of: address)
        case .gyroBiasRefined:
            recordState(of: address)
        }
    }
}
