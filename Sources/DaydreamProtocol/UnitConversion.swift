/// The bridge's one home for unit conversions: radians and degrees, m/s^2 and g. Every module
/// that converts calls these rather than writing `180 / .pi` or a gravity of its own.
///
/// Inlinable and computed, so a caller on the packet path folds each factor to a constant.
public enum UnitConversion {
    /// Standard gravity in m/s^2 (the CGPM's conventional value, exact by definition).
    @inlinable public static var standardGravity: Double { 9.80665 }

    /// Degrees in one radian: 180 / pi.
    @inlinable public static var degreesPerRadian: Double { 180 / Double.pi }

    /// Radians in one degree: pi / 180.
    @inlinable public static var radiansPerDegree: Double { Double.pi / 180 }

    /// An angle (or angular rate) in radians as degrees.
    @inlinable @inline(__always)
    public static func degrees(radians: Double) -> Double { radians * degreesPerRadian }

    /// An angle (or angular rate) in degrees as radians.
    @inlinable @inline(__always)
    public static func radians(degrees: Double) -> Double { degrees * radiansPerDegree }

    /// Each axis of a vector in radians (or rad/s) as degrees (deg/s).
    @inlinable @inline(__always)
    public static func degrees(radians v: Vector3) -> Vector3 {
        Vector3(x: degrees(radians: v.x), y: degrees(radians: v.y), z: degrees(radians: v.z))
    }

    /// An acceleration in m/s^2 as multiples of standard gravity.
    @inlinable @inline(__always)
    public static func gravities(metresPerSecondSquared: Double) -> Double { metresPerSecondSquared / standardGravity }

    /// Each axis of an acceleration in m/s^2 as multiples of standard gravity.
    @inlinable @inline(__always)
    public static func gravities(metresPerSecondSquared v: Vector3) -> Vector3 {
        Vector3(
            x: gravities(metresPerSecondSquared: v.x), y: gravities(metresPerSecondSquared: v.y),
            z: gravities(metresPerSecondSquared: v.z))
    }

    /// Multiples of standard gravity as m/s^2.
    @inlinable @inline(__always)
    public static func metresPerSecondSquared(gravities: Double) -> Double { gravities * standardGravity }
}
