import DaydreamProtocol

/// Measuring the gyro's bias on its own, whenever the controller really rests (`gyro = {
/// auto-calibrate = true }`).
///
/// The raw gyro alone cannot tell a slow steady turn from a bias: both are a steady rate (which
/// is why JoyShockMapper keeps its own automatic calibration off by default). The Daydream also
/// sends its fused orientation and its accelerometer: a turn of any speed moves the orientation,
/// and a hand moves the accelerometer. So a rest is: the orientation within `orientationLimit`
/// of where the rest began, the accelerometer within `accelerationLimit` of its reading then,
/// and the raw rate within `rateLimit` of its mean so far. After `settle` seconds of rest, and at
/// each further `settle`, the raw rate's mean over the whole rest is the bias.
/// Fixed storage: nothing is allocated per packet.
public struct GyroAutoCalibration: Hashable, Sendable {
    /// How long a rest must last before its mean is taken, and between later takes (seconds).
    public static let settle = 1.0
    /// How far (radians) the fused orientation may turn during a rest: 0.5 degrees, which a
    /// 2 deg/s turn passes in a quarter second (the orientation's resolution is 0.09 degrees).
    public static let orientationLimit = 0.5 * Double.pi / 180
    /// How far (m/s^2) the accelerometer may stray from its reading when the rest began: a tilt
    /// of 1.5 degrees, about 13 of its counts.
    public static let accelerationLimit = 0.25
    /// How far (rad/s) the raw rate may stray from the rest's mean so far: 1.5 deg/s, three of
    /// the gyro's counts (a resting gyro's noise is about one).
    public static let rateLimit = 1.5 * Double.pi / 180
    /// |q0 . q| at or above this: the orientations are within `orientationLimit` (cos(limit / 2),
    /// to the second order, which is exact to 1e-12 at this angle).
    static let orientationDot = 1 - orientationLimit * orientationLimit / 8

    /// The orientation the rest is measured from: the first packet's that passed the cheaper
    /// checks (worked out only then, as it costs a sine and a cosine).
    private var restOrientation: Quaternion?
    private var restAcceleration = Vector3.zero
    private var sum = Vector3.zero
    private var samples = 0
    private var rested = 0.0
    private var nextTake = settle

    /// Nothing measured yet.
    public init() {}

    /// Takes one packet: its raw rate (rad/s, before any bias), acceleration and orientation
    /// (asked for only once the rate and the accelerometer look still), `seconds` after the last
    /// packet. Returns the bias when a rest has lasted long enough (at `settle` seconds of rest,
    /// and at each further `settle`), else nil.
    public mutating func add(rate: Vector3, acceleration: Vector3, seconds: Double, orientation: () -> Quaternion) -> Vector3? {
        guard rate.x.isFinite, rate.y.isFinite, rate.z.isFinite, seconds.isFinite, seconds >= 0 else {
            samples = 0
            return nil
        }
        guard samples > 0, isSteady(rate: rate, acceleration: acceleration) else {
            begin(rate: rate, acceleration: acceleration)
            return nil
        }
        let now = orientation()
        if let reference = restOrientation {
            guard Self.within(reference, now) else {
                begin(rate: rate, acceleration: acceleration)
                restOrientation = now
                return nil
            }
        } else {
            restOrientation = now
        }
        sum = Vector3(x: sum.x + rate.x, y: sum.y + rate.y, z: sum.z + rate.z)
        samples += 1
        rested += seconds
        // A hair of slack: 70 intervals of 1/70 s add up to just under 1.
        guard rested >= nextTake - 1e-9 else { return nil }
        nextTake += Self.settle
        return mean
    }

    /// Forgets the rest in progress (the gyro's bias was set another way).
    public mutating func reset() {
        samples = 0
    }

    private var mean: Vector3 {
        let count = Double(samples)
        return Vector3(x: sum.x / count, y: sum.y / count, z: sum.z / count)
    }

    /// The raw rate near the rest's mean and the accelerometer near its reading when it began.
    private func isSteady(rate: Vector3, acceleration: Vector3) -> Bool {
        let mean = mean
        let stray = Vector3(x: rate.x - mean.x, y: rate.y - mean.y, z: rate.z - mean.z)
        let shaken = Vector3(x: acceleration.x - restAcceleration.x, y: acceleration.y - restAcceleration.y,
                             z: acceleration.z - restAcceleration.z)
        return stray.length <= Self.rateLimit && shaken.length <= Self.accelerationLimit
    }

    /// Whether `orientation` is within `orientationLimit` of `reference`.
    private static func within(_ reference: Quaternion, _ orientation: Quaternion) -> Bool {
        let dot = reference.w * orientation.w + reference.x * orientation.x + reference.y * orientation.y + reference.z * orientation.z
        return abs(dot) >= orientationDot
    }

    private mutating func begin(rate: Vector3, acceleration: Vector3) {
        restOrientation = nil
        restAcceleration = acceleration
        sum = rate
        samples = 1
        rested = 0
        nextTake = Self.settle
    }
}
