/// The units of the input report's motion fields, and the calibration report
/// that makes hid-playstation (and SDL's PS5 driver, which reads the same
/// report) scale them to its own.
///
/// hid-playstation reports gyro in 1/1024 deg/s and acceleration in 1/8192 g.
/// From the calibration it computes, per gyro axis,
/// `(raw - bias) * (speedPlus + speedMinus) * 1024 / (plus - minus)`, and per
/// accelerometer axis `(raw - (plus - range / 2)) * 2 * 8192 / range` with
/// `range = plus - minus`. With biases 0, gyro plus/minus ±8640, speed 540
/// and accelerometer plus/minus ±8192, that is `raw * 64` and `raw`: the
/// report carries gyro at 16 counts per deg/s (±2048 deg/s, the range the
/// driver declares) and acceleration at 8192 counts per g (±4 g). SDL accepts
/// a calibration only within half of those same factors (64 and 1), and these
/// are exact.
public enum DualSenseMotionUnits {
    /// Input-report gyro counts per degree per second.
    public static let gyroCountsPerDegreePerSecond = 16.0
    /// Input-report accelerometer counts per g.
    public static let accelerationCountsPerG = 8192.0
    /// The kernel's gyro units per degree per second (its `resolution` of ABS_RX/RY/RZ).
    public static let kernelGyroUnitsPerDegreePerSecond = 1024
    /// The kernel's accelerometer units per g (its `resolution` of ABS_X/Y/Z).
    public static let kernelAccelerationUnitsPerG = 8192

    /// The calibration report's gyro "speed" (deg/s) and the raw reading it gives.
    static let calibrationGyroSpeed: Int16 = 540
    static let calibrationGyroReading: Int16 = 8640
    /// The calibration report's accelerometer readings at +1 g and -1 g.
    static let calibrationAccelerationReading: Int16 = 8192
}
