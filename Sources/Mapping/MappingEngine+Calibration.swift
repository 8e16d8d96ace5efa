import DaydreamProtocol
import Timebase

/// A bias measurement in progress: the average, and the last packet's arrival and stamp (the
/// hold is timed by the controller's clock, as the gyro's motion is).
struct GyroCalibrationRun: Sendable {
    var measurement: GyroCalibration
    var lastTime: MonotonicTime?
    var lastStamp: ControllerStamp?
    /// The last progress said, in tenths: a notice goes out at each further tenth.
    var tenthsSaid = 0
}

/// `auto-calibrate`'s rest detector and the last packet's arrival and stamp.
struct GyroAutoCalibrationRun: Sendable {
    var detector = GyroAutoCalibration()
    var lastTime: MonotonicTime?
    var lastStamp: ControllerStamp?
}

extension MappingEngine {
    /// Starts measuring the gyro's bias over the next `duration` seconds (the controller held
    /// still); progress and the result arrive as notices, and the result applies at once. Called
    /// again while measuring: starts over.
    public mutating func startGyroCalibration(duration: Double = GyroCalibration.defaultDuration) {
        calibration = GyroCalibrationRun(measurement: GyroCalibration(duration: duration))
        notices.append(.gyroCalibrationStarted)
    }

    /// Stops a bias measurement without a result; the bias stays as it was.
    public mutating func cancelGyroCalibration() {
        calibration = nil
    }

    /// Takes a bias measured before (a stored one, after a reconnect or a restart).
    public mutating func setGyroBias(_ bias: Vector3) {
        gyroBias = bias
        refinedGyroBias = nil
    }

    /// How far a bias measurement is (0...1), nil when none runs.
    public var gyroCalibrationProgress: Double? {
        calibration?.measurement.progress
    }

    mutating func measureGyroBias(_ input: ControllerInput, at time: MonotonicTime) {
        guard var run = calibration else { return }
        let seconds = run.lastTime.map { SampleInterval.between(run.lastStamp, input.controllerTime, arrival: time - $0).seconds } ?? 0
        run.lastTime = time
        run.lastStamp = input.controllerTime
        switch run.measurement.add(input.rotationRate, seconds: seconds) {
        case .measuring(let fraction):
            let tenths = Int(fraction * 10)
            if tenths > run.tenthsSaid {
                run.tenthsSaid = tenths
                notices.append(.gyroCalibrationProgress(Double(tenths) / 10))
            }
            calibration = run
        case .done(let bias):
            calibration = nil
            gyroBias = bias
            refinedGyroBias = nil
            notices.append(.gyroCalibrated(bias))
        case .moved:
            calibration = nil
            notices.append(.gyroCalibrationFailed)
        }
    }

    /// `auto-calibrate`: watches for a real rest (`GyroAutoCalibration`); the raw rate's mean
    /// over one replaces the bias, stored or measured, that applied before it.
    mutating func refineGyroBias(_ input: ControllerInput, at time: MonotonicTime) {
        let run = autoCalibration
        // As the gyro's own step: a gap (a profile without auto-calibrate, a calibration) counts
        // as one packet's time, never as time at rest.
        let interval = run.lastTime.map { SampleInterval.between(run.lastStamp, input.controllerTime, arrival: time - $0).seconds } ?? 0
        let seconds = min(max(interval, 0), Self.longestGyroStep)
        autoCalibration.lastTime = time
        autoCalibration.lastStamp = input.controllerTime
        // An orientation estimated from this gyro turns with its bias: the rest is then judged by
        // the raw rate and the accelerometer alone.
        let fused = input.orientationIsFused
        guard let bias = autoCalibration.detector.add(rate: input.rotationRate, acceleration: input.acceleration, seconds: seconds,
                                                      orientation: { fused ? input.orientation : .identity }) else { return }
        gyroBias = bias
        refinedGyroBias = bias
        notices.append(.gyroBiasRefined(bias))
    }
}
