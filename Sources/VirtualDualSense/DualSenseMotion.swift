import DaydreamProtocol
import VirtualHID

/// The controller's motion in the DualSense's units. The Daydream controller's axes (x right,
/// y up, z toward the holder's wrist) are the DualSense's as SDL reads them (x right, y up,
/// z toward the player), so only the units change.
enum DualSenseMotion {
    static let standardGravity = 9.80665

    /// rad/s to deg/s.
    static func degreesPerSecond(_ rate: Vector3) -> Vector3 {
        let scale = 180 / Double.pi
        return .init(x: rate.x * scale, y: rate.y * scale, z: rate.z * scale)
    }

    /// m/s^2 to g.
    static func gravities(_ acceleration: Vector3) -> Vector3 {
        .init(x: acceleration.x / standardGravity, y: acceleration.y / standardGravity,
              z: acceleration.z / standardGravity)
    }
}
