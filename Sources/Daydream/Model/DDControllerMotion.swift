import DaydreamProtocol

/// A closure called when the controller's motion changes.
public typealias DDControllerMotionHandler = @MainActor (DDControllerMotion) -> Void

/// The controller's IMU, as its firmware reports it (already fused: no filter runs here).
@MainActor
public final class DDControllerMotion {
    /// Called on every packet with new motion values.
    public var valueChangedHandler: DDControllerMotionHandler?

    /// The controller's orientation.
    public private(set) var orientation = Quaternion.identity
    /// The orientation as the rotation vector the controller sends (axis times angle, radians).
    public private(set) var rotationVector = Vector3.zero
    /// Rotation rate, rad/s.
    public private(set) var rotationRate = Vector3.zero
    /// Acceleration including gravity, m/s^2.
    public private(set) var acceleration = Vector3.zero

    init() {}

    func update(from packet: DaydreamPacket) {
        rotationVector = packet.rotationVector
        orientation = Quaternion(rotationVector: rotationVector)
        rotationRate = packet.rotationRate
        acceleration = packet.accelerationSI
        valueChangedHandler?(self)
    }
}
