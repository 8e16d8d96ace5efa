import DaydreamProtocol

/// One snapshot of the controller, in SI units: what the engine maps.
public struct ControllerInput: Hashable, Sendable {
    /// The buttons held down.
    public var buttons: DaydreamButtons
    /// The finger on the touchpad (x 0 left...1 right, y 0 top...1 bottom), or nil.
    public var touch: TouchPoint?
    /// The controller's orientation as a unit quaternion. From a packet it is worked out
    /// when read (a sine and a cosine), as most profiles never read it.
    public var orientation: Quaternion {
        get {
            switch orientationSource {
            case .quaternion(let quaternion): quaternion
            case .rotationVector(let vector): Quaternion(rotationVector: vector)
            }
        }
        set { orientationSource = .quaternion(newValue) }
    }
    /// Rotation rate in rad/s about the controller's x, y and z axes.
    public var rotationRate: Vector3
    /// Acceleration in m/s^2.
    public var acceleration: Vector3
    /// The controller's own clock when it took the snapshot (the packet's time field):
    /// milliseconds, wrapping at 512. Nil when unknown; motion then goes by arrival time.
    public var controllerTime: UInt16?

    /// Where `orientation` comes from: given, or the packet's rotation vector.
    private enum OrientationSource: Sendable {
        case quaternion(Quaternion)
        case rotationVector(Vector3)
    }
    private var orientationSource: OrientationSource

    /// A snapshot with every field given; the defaults are a controller at rest.
    public init(
        buttons: DaydreamButtons = [],
        touch: TouchPoint? = nil,
        orientation: Quaternion = .identity,
        rotationRate: Vector3 = .zero,
        acceleration: Vector3 = .zero,
        controllerTime: UInt16? = nil
    ) {
        self.buttons = buttons
        self.touch = touch
        orientationSource = .quaternion(orientation)
        self.rotationRate = rotationRate
        self.acceleration = acceleration
        self.controllerTime = controllerTime
    }

    /// The snapshot a decoded packet describes.
    public init(packet: DaydreamPacket) {
        self.init(
            buttons: packet.buttons,
            touch: packet.touchPoint,
            rotationRate: packet.rotationRate,
            acceleration: packet.accelerationSI,
            controllerTime: packet.time
        )
        orientationSource = .rotationVector(packet.rotationVector)
    }

    // Equal snapshots have equal orientations, however each was given.
    public static func == (left: ControllerInput, right: ControllerInput) -> Bool {
        left.buttons == right.buttons && left.touch == right.touch && left.orientation == right.orientation
            && left.rotationRate == right.rotationRate && left.acceleration == right.acceleration
            && left.controllerTime == right.controllerTime
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(buttons)
        hasher.combine(touch)
        hasher.combine(orientation)
        hasher.combine(rotationRate)
        hasher.combine(acceleration)
        hasher.combine(controllerTime)
    }
}
