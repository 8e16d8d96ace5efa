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
            case .counts(let counts), .estimatedCounts(let counts):
                Quaternion(rotationVector: Vector3(counts, scale: Scale.orientation))
            }
        }
        set { orientationSource = .quaternion(newValue) }
    }
    /// Rotation rate in rad/s about the controller's x, y and z axes. From a packet it is
    /// scaled when read, as most profiles never read it.
    public var rotationRate: Vector3 {
        get {
            switch motionSource {
            case .counts(_, let gyro): Vector3(gyro, scale: Scale.gyro)
            case .measured(_, let rotationRate): rotationRate
            }
        }
        set { motionSource = .measured(acceleration: acceleration, rotationRate: newValue) }
    }
    /// Acceleration in m/s^2. From a packet it is scaled when read.
    public var acceleration: Vector3 {
        get {
            switch motionSource {
            case .counts(let acceleration, _): Vector3(acceleration, scale: Scale.acceleration)
            case .measured(let acceleration, _): acceleration
            }
        }
        set { motionSource = .measured(acceleration: newValue, rotationRate: rotationRate) }
    }
    /// The packet's accelerometer and gyro counts, when the snapshot is a packet's and neither
    /// was set since: the motion sensor's axes are whole multiples of them (`MotionSensors`).
    var sensorCounts: (acceleration: RawVector, gyro: RawVector)? {
        switch motionSource {
        case .counts(let acceleration, let gyro): (acceleration, gyro)
        case .measured: nil
        }
    }
    /// The controller's own clock when it took the snapshot (the packet's `stamp`: a Daydream's
    /// milliseconds wrapping at 512, a Gear VR sample's microseconds). Nil when unknown; motion
    /// then goes by arrival time.
    public var controllerTime: ControllerStamp?

    /// Whether `orientation` is the controller firmware's fusion or given, not one the feed
    /// worked out from this very gyro (a Gear VR's): a gyro's bias turns an estimate as a slow
    /// turn would, so only a fused one can tell a rest from a turn (`GyroAutoCalibration`).
    public var orientationIsFused: Bool {
        if case .estimatedCounts = orientationSource { false } else { true }
    }

    /// Where `orientation` comes from: given, the packet's rotation-vector counts, or the
    /// counts the feed estimated from the gyro for a family that sends none.
    @usableFromInline enum OrientationSource: Sendable {
        case quaternion(Quaternion)
        case counts(RawVector)
        case estimatedCounts(RawVector)
    }
    @usableFromInline var orientationSource: OrientationSource

    /// Where `acceleration` and `rotationRate` come from: a packet's counts, or given.
    @usableFromInline enum MotionSource: Sendable {
        case counts(acceleration: RawVector, gyro: RawVector)
        case measured(acceleration: Vector3, rotationRate: Vector3)
    }
    @usableFromInline var motionSource: MotionSource

    /// A snapshot with every field given; the defaults are a controller at rest.
    public init(
        buttons: DaydreamButtons = [],
        touch: TouchPoint? = nil,
        orientation: Quaternion = .identity,
        rotationRate: Vector3 = .zero,
        acceleration: Vector3 = .zero,
        controllerTime: ControllerStamp? = nil
    ) {
        self.buttons = buttons
        self.touch = touch
        orientationSource = .quaternion(orientation)
        motionSource = .measured(acceleration: acceleration, rotationRate: rotationRate)
        self.controllerTime = controllerTime
    }

    /// The snapshot a decoded packet describes. Its orientation, acceleration and rotation rate
    /// are the packet's counts until read, then scaled as the packet's own properties scale them
    /// (another family's motion is scaled at once, by its own scale).
    /// Inlinable: the daemon builds one per packet in another module, and the call cost more than its body.
    @inlinable @inline(__always)
    public init(packet: DaydreamPacket) {
        buttons = packet.buttons
        touch = packet.touchPoint
        if packet.family == .daydream {
            orientationSource = .counts(packet.orientation)
            motionSource = .counts(acceleration: packet.acceleration, gyro: packet.gyro)
        } else {
            orientationSource = .estimatedCounts(packet.orientation)
            motionSource = .measured(acceleration: packet.accelerationSI, rotationRate: packet.rotationRate)
        }
        controllerTime = packet.stamp
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
