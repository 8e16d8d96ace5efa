import DaydreamProtocol
import EventVocabulary

/// The engine's side of the absolute pointer: the controller's orientation as a position on the
/// device's axes (`AbsolutePointer` describes the device).
extension AbsolutePointer {
    /// The orientation relative to the zero as degrees: x positive turning right (yaw), y
    /// positive tipping the tip down (pitch), so both grow as the screen's coordinates do.
    @inline(__always)
    public static func degrees(_ orientation: Quaternion, zero: Quaternion) -> (x: Double, y: Double) {
        // Yaw and pitch alone: `eulerAngles` would work out the roll too (an `atan2`), unread.
        let relative = zero.conjugate * orientation
        return (UnitConversion.degrees(radians: -relative.yaw), UnitConversion.degrees(radians: -relative.pitch))
    }

    /// The coordinate for an angle in degrees over a field of view: the centre at 0, the edges at
    /// half the field either side, clamped there beyond.
    @inline(__always)
    public static func coordinate(_ degrees: Double, fieldOfView: Double) -> Int32 {
        guard degrees.isFinite else { return axis.value }
        let fraction = min(1, max(0, 0.5 + degrees / fieldOfView))
        return roundedInt32(fraction * Double(maximum))
    }
}
