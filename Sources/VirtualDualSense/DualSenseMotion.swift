import DaydreamProtocol
import VirtualHID

/// The controller's motion in the DualSense's units. The Daydream controller's axes (x right,
/// y up, z toward the holder's wrist) are the DualSense's as SDL reads them (x right, y up,
/// z toward the player), so only the units change (through `UnitConversion`).
enum DualSenseMotion {
    /// rad/s to deg/s.
    static func degreesPerSecond(_ rate: Vector3) -> Vector3 { UnitConversion.degrees(radians: rate) }

    /// m/s^2 to g.
    static func gravities(_ acceleration: Vector3) -> Vector3 { UnitConversion.gravities(metresPerSecondSquared: acceleration) }
}
