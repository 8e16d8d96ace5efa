import DaydreamProtocol
import Timebase

/// Measuring the gyro's bias: the controller held still for `duration`, its raw rates averaged.
/// A rate that strays more than `stillness` from the running mean means it moved: the
/// measurement fails rather than store a turn as the bias.
public struct GyroCalibration: Hashable, Sendable {
    /// The hold's length unless said otherwise, in seconds.
    public static let defaultDuration = 2.0
    /// How long to average (default 2 s).
    public let duration: Double
    /// How far (rad/s) a sample may stray from the mean before the controller counts as moved
    /// (default 0.1 rad/s, about 6 deg/s: far above a resting gyro's noise).
    public let stillness: Double
    private var sum = Vector3.zero
    private var samples = 0
    private var elapsed = 0.0

    /// What one packet made of it.
    public enum Step: Hashable, Sendable {
        /// Still measuring: the fraction done.
        case measuring(Double)
        /// Done: the bias, in rad/s about each axis.
        case done(Vector3)
        /// The controller moved.
        case moved
    }

    /// How far along it is, 0...1.
    public var progress: Double { min(elapsed / duration, 1) }

    /// A measurement of `duration` seconds.
    public init(duration: Double = defaultDuration, stillness: Double = 0.1) {
        self.duration = duration
        self.stillness = stillness
    }

    /// Takes one packet's raw rate, `seconds` after the last.
    public mutating func add(_ rate: Vector3, seconds: Double) -> Step {
        if samples > 0 {
            let mean = Vector3(x: sum.x / Double(samples), y: sum.y / Double(samples), z: sum.z / Double(samples))
            let stray = Vector3(x: rate.x - mean.x, y: rate.y - mean.y, z: rate.z - mean.z)
            if stray.length > stillness { return .moved }
        }
        sum = Vector3(x: sum.x + rate.x, y: sum.y + rate.y, z: sum.z + rate.z)
        samples += 1
        elapsed += max(seconds, 0)
        // A hair of slack: ten packets of 0.01 s add up to just under 0.1.
        guard elapsed >= duration - 1e-9 else { return .measuring(elapsed / duration) }
        return .done(Vector3(x: sum.x / Double(samples), y: sum.y / Double(samples), z: sum.z / Double(samples)))
    }
}
