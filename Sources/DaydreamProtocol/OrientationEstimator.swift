#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a family's orientation comes from.
public enum OrientationSource: Sendable, Hashable {
    /// The controller's firmware fuses it and sends it in every packet (the Daydream).
    case firmware
    /// The packets carry none: `OrientationEstimator` works it out from the IMU samples.
    case estimated
}

/// The orientation of a controller whose packets carry none (the Gear VR, the Oculus Go), worked
/// out from its IMU sample by sample: the gyroscope's rate integrated over each sample's own time
/// step, and pitch and roll drawn gently toward the gravity the accelerometer reads while the
/// controller is not being swung (a complementary filter). Without a gyroscope (scale 0, the
/// Oculus Go's packets) the orientation is gravity's alone: pitch and roll, no yaw.
///
/// The reference is the controller's pose at its first sample, as the Daydream's firmware has its
/// own: everything that reads an orientation (the pointer, tilt, opentrack) reads it against a zero
/// it takes and retakes on a recentre. Yaw drifts as a gyroscope's does; pitch and roll do not.
public struct OrientationEstimator: Sendable {
    /// How fast pitch and roll are drawn toward gravity, per second per radian of error: 1 leaves
    /// a gyroscope's bias of 1 deg/s about a level axis a standing error under 1 degree, and lets
    /// a swing's acceleration move the estimate by little.
    public static let gravityGain = 1.0
    /// Accelerations whose size is within this fraction of 1 g count as gravity alone.
    public static let gravityTolerance = 0.15
    /// A time step beyond this (a gap in the stream, a wrapped clock) integrates nothing.
    public static let longestStep = 0.1

    /// Body to reference, a unit quaternion (`DaydreamPacket.quaternion`'s sense).
    public private(set) var orientation = Quaternion.identity
    /// Gravity's direction in the reference frame (what "up" read at the first steady sample).
    private var referenceUp: Vector3?

    public init() {}

    /// Forgets the pose: the next sample is the new reference (after the link was lost).
    public mutating func reset() {
        orientation = .identity
        referenceUp = nil
    }

    /// Takes one IMU sample, `step` seconds after the previous one: `rate` in rad/s,
    /// `acceleration` in m/s^2, both on the controller's axes.
    public mutating func update(rate: Vector3, acceleration: Vector3, step: Double) {
        let size = acceleration.length
        let steady = size.isFinite && abs(size / UnitConversion.standardGravity - 1) <= Self.gravityTolerance
        let measuredUp = steady ? acceleration.scaled(by: 1 / size) : nil
        guard let referenceUp else {
            if let measuredUp { self.referenceUp = measuredUp }
            return
        }
        guard step > 0, step <= Self.longestStep, rate.isFinite else { return }
        var corrected = rate
        if let measuredUp {
            // The turn that would bring the up the estimate predicts onto the up measured.
            let predictedUp = orientation.conjugate.rotating(referenceUp)
            let error = measuredUp.cross(predictedUp)
            corrected = rate.adding(error.scaled(by: Self.gravityGain))
        }
        let turn = Quaternion(rotationVector: corrected.scaled(by: step))
        orientation = (orientation * turn).normalised
    }

    /// Takes one accelerometer reading of a controller without a gyroscope: the orientation is the
    /// shortest turn from the reference's up to the up measured now (no yaw).
    public mutating func update(acceleration: Vector3) {
        let size = acceleration.length
        guard size.isFinite, abs(size / UnitConversion.standardGravity - 1) <= Self.gravityTolerance else { return }
        let measuredUp = acceleration.scaled(by: 1 / size)
        guard let referenceUp else {
            self.referenceUp = measuredUp
            return
        }
        // The body turned so that the reference's up now reads as `measuredUp`: body to
        // reference takes `measuredUp` to `referenceUp`.
        orientation = Quaternion(turning: measuredUp, onto: referenceUp)
    }

    /// The orientation as a packet's 13-bit rotation-vector counts (`Scale.orientation` each).
    public var rotationVectorCounts: RawVector {
        let vector = orientation.rotationVector
        func counts(_ radians: Double) -> Int16 {
            Int16(max(-4095, min(4095, (radians / Scale.orientation).rounded())))
        }
        return RawVector(counts(vector.x), counts(vector.y), counts(vector.z))
    }
}

extension Vector3 {
    /// Every component finite.
    var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }

    func scaled(by factor: Double) -> Vector3 { Vector3(x: x * factor, y: y * factor, z: z * factor) }

    func adding(_ other: Vector3) -> Vector3 { Vector3(x: x + other.x, y: y + other.y, z: z + other.z) }

    func dot(_ other: Vector3) -> Double { x * other.x + y * other.y + z * other.z }

    func cross(_ other: Vector3) -> Vector3 {
        Vector3(x: y * other.z - z * other.y, y: z * other.x - x * other.z, z: x * other.y - y * other.x)
    }
}

extension Quaternion {
    /// The same rotation with its length made 1 again (integration rounds it away).
    var normalised: Quaternion {
        let length = (w * w + x * x + y * y + z * z).squareRoot()
        guard length > 0, length.isFinite else { return .identity }
        return Quaternion(w: w / length, x: x / length, y: y / length, z: z / length)
    }

    /// `vector` turned by this rotation.
    func rotating(_ vector: Vector3) -> Vector3 {
        let turned = self * Quaternion(w: 0, x: vector.x, y: vector.y, z: vector.z) * conjugate
        return Vector3(x: turned.x, y: turned.y, z: turned.z)
    }

    /// The shortest rotation that turns unit vector `from` onto unit vector `to`.
    init(turning from: Vector3, onto to: Vector3) {
        let axis = from.cross(to)
        let cosine = from.dot(to)
        guard cosine > -0.999_999 else {
            // Opposite: half a turn about any axis square to `from`.
            let side = abs(from.x) < 0.9 ? Vector3(x: 1, y: 0, z: 0) : Vector3(x: 0, y: 1, z: 0)
            let square = from.cross(side)
            self = Quaternion(w: 0, x: square.x, y: square.y, z: square.z).normalised
            return
        }
        self = Quaternion(w: 1 + cosine, x: axis.x, y: axis.y, z: axis.z).normalised
    }

    /// Axis times angle in radians (angle within 0...π).
    public var rotationVector: Vector3 {
        let unit = w < 0 ? Quaternion(w: -w, x: -x, y: -y, z: -z) : self
        let sine = (unit.x * unit.x + unit.y * unit.y + unit.z * unit.z).squareRoot()
        guard sine > 1e-12 else { return Vector3(x: 2 * unit.x, y: 2 * unit.y, z: 2 * unit.z) }
        let angle = 2 * atan2(sine, unit.w)
        let factor = angle / sine
        return Vector3(x: unit.x * factor, y: unit.y * factor, z: unit.z * factor)
    }
}
