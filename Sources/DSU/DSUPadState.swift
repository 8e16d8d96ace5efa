/// A controller's state as a data message carries it, after the slot's `DSUControllerInfo`.
public struct DSUPadState: Equatable, Sendable {
    /// The first button byte, bit 7 first: d-pad left, down, right, up, options, R3, L3, share.
    public struct Buttons1: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let share = Buttons1(rawValue: 0x01)
        public static let l3 = Buttons1(rawValue: 0x02)
        public static let r3 = Buttons1(rawValue: 0x04)
        public static let options = Buttons1(rawValue: 0x08)
        public static let dpadUp = Buttons1(rawValue: 0x10)
        public static let dpadRight = Buttons1(rawValue: 0x20)
        public static let dpadDown = Buttons1(rawValue: 0x40)
        public static let dpadLeft = Buttons1(rawValue: 0x80)
    }

    /// The second button byte, bit 7 first: Y (triangle), B (circle), A (cross), X (square), R1,
    /// L1, R2, L2.
    public struct Buttons2: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let l2 = Buttons2(rawValue: 0x01)
        public static let r2 = Buttons2(rawValue: 0x02)
        public static let l1 = Buttons2(rawValue: 0x04)
        public static let r1 = Buttons2(rawValue: 0x08)
        public static let x = Buttons2(rawValue: 0x10)
        public static let a = Buttons2(rawValue: 0x20)
        public static let b = Buttons2(rawValue: 0x40)
        public static let y = Buttons2(rawValue: 0x80)
    }

    /// One touch record.
    public struct Touch: Hashable, Sendable {
        public var isActive: Bool
        /// The same for one continuous touch; a new touch has a new one.
        public var id: UInt8
        public var x: UInt16
        public var y: UInt16

        public init(isActive: Bool = false, id: UInt8 = 0, x: UInt16 = 0, y: UInt16 = 0) {
            self.isActive = isActive
            self.id = id
            self.x = x
            self.y = y
        }
    }

    /// Whether the controller is active (connected and sending).
    public var isActive = false
    /// Counts data messages for the slot.
    public var packetCounter: UInt32 = 0
    public var buttons1: Buttons1 = []
    public var buttons2: Buttons2 = []
    /// The PS (home) button.
    public var home = false
    /// The touchpad's own button.
    public var touchButton = false
    /// Sticks, 0...255 with 128 the centre; y grows upward.
    public var leftStick: (x: UInt8, y: UInt8) = (128, 128)
    public var rightStick: (x: UInt8, y: UInt8) = (128, 128)
    public var touch1 = Touch()
    public var touch2 = Touch()
    /// When the motion was sampled, microseconds.
    public var motionTimestamp: UInt64 = 0
    /// Acceleration, g.
    public var acceleration: (x: Float, y: Float, z: Float) = (0, 0, 0)
    /// Angular rate, degrees per second.
    public var gyro: (pitch: Float, yaw: Float, roll: Float) = (0, 0, 0)

    public init() {}

    public static func == (lhs: DSUPadState, rhs: DSUPadState) -> Bool {
        lhs.isActive == rhs.isActive && lhs.packetCounter == rhs.packetCounter
            && lhs.buttons1 == rhs.buttons1 && lhs.buttons2 == rhs.buttons2
            && lhs.home == rhs.home && lhs.touchButton == rhs.touchButton
            && lhs.leftStick == rhs.leftStick && lhs.rightStick == rhs.rightStick
            && lhs.touch1 == rhs.touch1 && lhs.touch2 == rhs.touch2
            && lhs.motionTimestamp == rhs.motionTimestamp
            && lhs.acceleration == rhs.acceleration && lhs.gyro == rhs.gyro
    }
}
