import DaydreamProtocol

/// The motion-sensor device's axes, as the kernel's `INPUT_PROP_ACCELEROMETER` convention and
/// hid-playstation's DualSense node have them: acceleration on `ABS_X/Y/Z` in units of
/// 1/8192 g, angular rate on `ABS_RX/RY/RZ` in units of 1/1024 degree per second (the axes'
/// `resolution`), and `MSC_TIMESTAMP` in microseconds.
///
/// Ranges cover the Daydream's sensors (protocol.md): ±8 g (4095 counts = 8 g, so one count is
/// 16 units) and ±2048 deg/s (4095 counts = 2048 deg/s, one count 512 units); the one count
/// beyond (-4096) is clamped. Fuzz 0 and flat 0: one count is already 16 or 512 units.
///
/// Axes: the Daydream's are the DualSense node's already (x to the right, y out of the
/// touchpad's face, z back towards the holder; the gyro right-handed about them: pitch, yaw,
/// roll), so each goes to its axis unchanged: lying flat, `ABS_Y` reads +1 g.
public enum MotionSensors {
    /// Acceleration units per g (`ABS_X/Y/Z` resolution), as hid-playstation.
    public static let unitsPerG: Int32 = 8192
    /// Angular-rate units per degree per second (`ABS_RX/RY/RZ` resolution), as hid-playstation.
    public static let unitsPerDegreePerSecond: Int32 = 1024
    /// Standard gravity as the packet's scaling counts it (`Scale.acceleration`: 8 g / 4095 counts, g = 9.8).
    public static let metresPerSecondSquaredPerG = 9.8

    /// ±8 g.
    public static let acceleration = AbsInfo(minimum: -8 * unitsPerG, maximum: 8 * unitsPerG, resolution: unitsPerG)
    /// ±2048 deg/s.
    public static let angularRate = AbsInfo(
        minimum: -2048 * unitsPerDegreePerSecond, maximum: 2048 * unitsPerDegreePerSecond,
        resolution: unitsPerDegreePerSecond)

    /// The acceleration axes, x, y, z.
    public static let accelerationAxes = [EventCode.absX, EventCode.absY, EventCode.absZ]
    /// The angular-rate axes, about x, y, z.
    public static let angularRateAxes = [EventCode.absRx, EventCode.absRy, EventCode.absRz]

    /// Every code the device carries: the six axes and `MSC_TIMESTAMP`.
    public static var capabilities: DeviceCapabilities {
        DeviceCapabilities(
            absoluteAxes: accelerationAxes.map { AbsoluteAxis(code: $0, info: acceleration) }
                + angularRateAxes.map { AbsoluteAxis(code: $0, info: angularRate) },
            miscCodes: [EventCode.mscTimestamp])
    }

    /// Whether a code is one of the device's own.
    public static func carries(type: UInt16, code: UInt16) -> Bool {
        switch type {
        case EventType.abs: code >= EventCode.absX && code <= EventCode.absRz
        case EventType.msc: code == EventCode.mscTimestamp
        default: false
        }
    }

    /// An acceleration in m/s^2 as axis units, rounded and clamped to the range.
    public static func accelerationValue(_ metresPerSecondSquared: Double) -> Int32 {
        clamped(metresPerSecondSquared / metresPerSecondSquaredPerG * Double(unitsPerG), to: acceleration)
    }

    /// An angular rate in rad/s as axis units, rounded and clamped to the range.
    public static func angularRateValue(_ radiansPerSecond: Double) -> Int32 {
        clamped(radiansPerSecond * 180 / Double.pi * Double(unitsPerDegreePerSecond), to: angularRate)
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
