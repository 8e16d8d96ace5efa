#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Scale factors from raw counts to SI units (see protocol.md).
public enum Scale {
    // Computed and inlinable, so other modules fold each to a constant rather than call a lazy
    // global's accessor on every packet.

    /// Radians per orientation count: 2 pi / 4095.
    @inlinable public static var orientation: Double { 2.0 * Double.pi / 4095.0 }
    /// m/s^2 per acceleration count: 8 g / 4095, with g the standard 9.80665.
    @inlinable public static var acceleration: Double { 8.0 * UnitConversion.standardGravity / 4095.0 }
    /// Radians per second per gyro count: 2048 / 4095 degrees per second.
    @inlinable public static var gyro: Double { UnitConversion.radians(degrees: 2048.0 / 4095.0) }
    /// Touch counts to 0...1.
    @inlinable public static var touch: Double { 1.0 / 255.0 }
}

/// Three doubles, in the unit the property that holds them names.
public struct Vector3: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var z: Double

    @inlinable
    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    public static let zero = Vector3(x: 0, y: 0, z: 0)

    /// The Euclidean length.
    public var length: Double { (x * x + y * y + z * z).squareRoot() }

    /// A packet's counts times `scale` (one of `Scale`'s units per count).
    @inlinable
    public init(_ raw: RawVector, scale: Double) {
        x = Double(raw.x) * scale
        y = Double(raw.y) * scale
        z = Double(raw.z) * scale
    }
}

/// A unit quaternion, w + xi + yj + zk.
public struct Quaternion: Hashable, Sendable {
    public var w: Double
    public var x: Double
    public var y: Double
    public var z: Double

    @inlinable
    public init(w: Double, x: Double, y: Double, z: Double) {
        self.w = w
        self.x = x
        self.y = y
        self.z = z
    }

    public static let identity = Quaternion(w: 1, x: 0, y: 0, z: 0)

    /// The rotation a rotation vector (axis times angle in radians) describes.
    public init(rotationVector v: Vector3) {
        let squaredAngle = v.x * v.x + v.y * v.y + v.z * v.z
        guard squaredAngle <= HalfAngleSeries.limit else {
            self.init(longRotationVector: v)
            return
        }
        let (cosine, factor) = HalfAngleSeries.cosineAndSineOverAngle(squaredAngle: squaredAngle)
        self.init(w: cosine, x: v.x * factor, y: v.y * factor, z: v.z * factor)
    }

    /// A vector longer than π (or not a number, which makes the identity), through libm.
    @inline(never)
    private init(longRotationVector v: Vector3) {
        let angle = v.length
        guard angle > 1e-12 else {
            self = .identity
            return
        }
        let half = angle / 2
        let factor = sin(half) / angle
        self.init(w: cos(half), x: v.x * factor, y: v.y * factor, z: v.z * factor)
    }

    /// The inverse rotation (the conjugate of a unit quaternion).
    @inlinable public var conjugate: Quaternion { Quaternion(w: w, x: -x, y: -y, z: -z) }

    /// The Hamilton product `self * other`.
    @inlinable @inline(__always)
    public static func * (lhs: Quaternion, rhs: Quaternion) -> Quaternion {
        Quaternion(
            w: lhs.w * rhs.w - lhs.x * rhs.x - lhs.y * rhs.y - lhs.z * rhs.z,
            x: lhs.w * rhs.x + lhs.x * rhs.w + lhs.y * rhs.z - lhs.z * rhs.y,
            y: lhs.w * rhs.y - lhs.x * rhs.z + lhs.y * rhs.w + lhs.z * rhs.x,
            z: lhs.w * rhs.z + lhs.x * rhs.y - lhs.y * rhs.x + lhs.z * rhs.w
        )
    }

    /// Rotation about the vertical (y) axis, yaw, in radians; and pitch (x) and roll (z).
    public var eulerAngles: (yaw: Double, pitch: Double, roll: Double) {
        (yaw, pitch, roll)
    }

    /// Rotation about the vertical (y) axis in radians: the yaw of `eulerAngles`, alone.
    @inlinable @inline(__always) public var yaw: Double { ArcTangent.angle(y: 2 * (w * y + x * z), x: 1 - 2 * (x * x + y * y)) }

    /// Rotation about the x axis in radians: the pitch of `eulerAngles`, alone.
    @inlinable public var pitch: Double { asin(max(-1, min(1, 2 * (w * x - y * z)))) }

    /// Rotation about the z axis in radians: the roll of `eulerAngles`, alone.
    public var roll: Double { ArcTangent.angle(y: 2 * (w * z + x * y), x: 1 - 2 * (x * x + z * z)) }
}

/// A point on the touchpad: x from 0 (left) to 1 (right), y from 0 (top) to 1 (bottom).
public struct TouchPoint: Hashable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

extension DaydreamPacket {
    /// The orientation's rotation vector in radians.
    public var rotationVector: Vector3 { Vector3(orientation, scale: Scale.orientation) }
    /// The orientation as a unit quaternion.
    public var quaternion: Quaternion { Quaternion(rotationVector: rotationVector) }
    /// Acceleration in m/s^2.
    public var accelerationSI: Vector3 { Vector3(acceleration, scale: scale.acceleration) }
    /// Rotation rate in rad/s.
    public var rotationRate: Vector3 { Vector3(gyro, scale: scale.gyro) }
    /// The finger's position, or nil when no finger is on the touchpad.
    @inlinable @inline(__always) public var touchPoint: TouchPoint? {
        guard isTouching else { return nil }
        return TouchPoint(x: Double(touchX) * scale.touch, y: Double(touchY) * scale.touch)
    }
}
