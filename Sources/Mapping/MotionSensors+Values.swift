import DaydreamProtocol
import EventVocabulary

/// The engine's side of the motion sensors: the controller's measurements as the device's axis
/// units (`MotionSensors` describes the device).
extension MotionSensors {
    /// An acceleration in m/s^2 as axis units, rounded and clamped to the range.
    public static func accelerationValue(_ metresPerSecondSquared: Double) -> Int32 {
        clamped(UnitConversion.gravities(metresPerSecondSquared: metresPerSecondSquared) * Double(unitsPerG), to: acceleration)
    }

    /// An angular rate in rad/s as axis units, rounded and clamped to the range.
    public static func angularRateValue(_ radiansPerSecond: Double) -> Int32 {
        clamped(UnitConversion.degrees(radians: radiansPerSecond) * Double(unitsPerDegreePerSecond), to: angularRate)
    }

    /// `accelerationValue` of a packet's accelerometer count, in integers: count × 8 g / 4095
    /// is count × 65536 / 4095 units, rounded to nearest and clamped. Never a half (4095 is
    /// odd, 65536 a power of two), nor within 1/8190 of one, so the scaled `Double` rounds the
    /// same way (`MotionSensorTests` checks every count).
    @inline(__always)
    static func accelerationValue(count: Int16) -> Int32 {
        scaled(count, fullScale: 8 * Int64(unitsPerG))
    }

    /// `angularRateValue` of a packet's gyro count, in integers: count × 2048 / 4095 deg/s is
    /// count × 2097152 / 4095 units, rounded to nearest and clamped (never a half either).
    @inline(__always)
    static func angularRateValue(count: Int16) -> Int32 {
        scaled(count, fullScale: 2048 * Int64(unitsPerDegreePerSecond))
    }

    /// `count × fullScale / 4095` (4095 counts are full scale) rounded to nearest, then clamped
    /// to ±`fullScale` (the one count beyond, -4096), as a multiplication by the ratio in 32.32
    /// fixed point and a shift (no division).
    ///
    /// The factor is off the ratio by at most 2^-33, so the product by a 13-bit count (at most
    /// 4096 in magnitude) by at most 2^-21: far inside the 1/8190 that separates every exact
    /// quotient from a half, so adding a half and flooring rounds as the exact quotient would.
    /// No overflow: the factor is below 2^42 and the count's magnitude at most 2^15.
    @inline(__always)
    private static func scaled(_ count: Int16, fullScale: Int64) -> Int32 {
        let factor = ((fullScale << 32) + 4095 / 2) / 4095
        let value = (Int64(count) &* factor &+ (1 << 31)) >> 32
        return Int32(truncatingIfNeeded: min(max(value, -fullScale), fullScale))
    }

    private static func clamped(_ value: Double, to info: AbsInfo) -> Int32 {
        guard value.isFinite else { return 0 }
        // Clamped first, then rounded: the bounds are whole, so the same as rounding first.
        return roundedInt32(min(max(value, Double(info.minimum)), Double(info.maximum)))
    }
}
