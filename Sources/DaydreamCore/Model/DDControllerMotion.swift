import DaydreamProtocol

/// A closure called when the controller's motion changes.
public typealias DDControllerMotionHandler = @MainActor (DDControllerMotion) -> Void

/// The controller's IMU, as its firmware reports it (already fused: no filter runs here).
@MainActor
public final class DDControllerMotion {
    /// Called on every packet with new motion values.
    public var valueChangedHandler: DDControllerMotionHandler? {
        get { handler }
        set { handler = newValue }
    }

    /// The controller's orientation.
    public var orientation: Quaternion { sample.orientation }
    /// The orientation as the rotation vector the controller sends (axis times angle, radians).
    public var rotationVector: Vector3 { sample.rotationVector }
    /// Rotation rate, rad/s.
    public var rotationRate: Vector3 { sample.rotationRate }
    /// Acceleration including gravity, m/s^2.
    public var acceleration: Vector3 { sample.acceleration }

    // Private storage behind public accessors: with every access inside this module, the
    // optimiser can prove they never overlap and drop the run-time exclusivity checks that
    // public stored properties pay on every packet.
    private var handler: DDControllerMotionHandler?
    private var sample = Sample()

    /// The values of one packet.
    private struct Sample {
        var orientation = Quaternion.identity
        var rotationVector = Vector3.zero
        var rotationRate = Vector3.zero
        var acceleration = Vector3.zero
    }

    init() {}

    func update(from packet: DaydreamPacket) {
        let rotationVector = packet.rotationVector
        sample = Sample(
            orientation: Quaternion(rotationVector: rotationVector), rotationVector: rotationVector,
            rotationRate: packet.rotationRate, acceleration: packet.accelerationSI)
        handler?(self)
    }
}
