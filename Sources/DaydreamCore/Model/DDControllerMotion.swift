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

    /// The controller's orientation (identity before the first packet).
    public var orientation: Quaternion { packet?.quaternion ?? .identity }
    /// The orientation as the rotation vector the controller sends (axis times angle, radians).
    public var rotationVector: Vector3 { packet?.rotationVector ?? .zero }
    /// Rotation rate, rad/s.
    public var rotationRate: Vector3 { packet?.rotationRate ?? .zero }
    /// Acceleration including gravity, m/s^2.
    public var acceleration: Vector3 { packet?.accelerationSI ?? .zero }

    // Private storage behind public accessors: with every access inside this module, the
    // optimiser can prove they never overlap and drop the run-time exclusivity checks that
    // public stored properties pay on every packet.
    private var handler: DDControllerMotionHandler?
    /// The newest packet: the values above are worked out from it when read, so a packet
    /// nobody reads the motion of costs no trigonometry.
    private var packet: DaydreamPacket?

    init() {}

    func update(from packet: DaydreamPacket) {
        self.packet = packet
        handler?(self)
    }
}
