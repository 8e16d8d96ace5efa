import DaydreamProtocol

/// What one input report of the virtual DualSense says, in the pad's own terms.
public struct DualSenseInputState: Hashable, Sendable {
    /// The digital buttons, as hid-playstation names them.
    public struct Buttons: OptionSet, Hashable, Sendable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        public static let square = Buttons(rawValue: 1 << 0)
        public static let cross = Buttons(rawValue: 1 << 1)
        public static let circle = Buttons(rawValue: 1 << 2)
        public static let triangle = Buttons(rawValue: 1 << 3)
        public static let l1 = Buttons(rawValue: 1 << 4)
        public static let r1 = Buttons(rawValue: 1 << 5)
        public static let l2 = Buttons(rawValue: 1 << 6)
        public static let r2 = Buttons(rawValue: 1 << 7)
        public static let create = Buttons(rawValue: 1 << 8)
        public static let options = Buttons(rawValue: 1 << 9)
        public static let l3 = Buttons(rawValue: 1 << 10)
        public static let r3 = Buttons(rawValue: 1 << 11)
        public static let ps = Buttons(rawValue: 1 << 12)
        /// The click under the touchpad.
        public static let touchpad = Buttons(rawValue: 1 << 13)
        public static let mute = Buttons(rawValue: 1 << 14)
    }

    /// The d-pad as a hat: eight directions clockwise from north, or centred.
    public enum DPad: UInt8, CaseIterable, Sendable {
        case north, northEast, east, southEast, south, southWest, west, northWest, centred

        /// The hat for the d-pad's x (-1 left, 1 right) and y (-1 up, 1 down), as
        /// ABS_HAT0X/Y give them.
        public init(x: Int32, y: Int32) {
            switch (x.signum(), y.signum()) {
            case (0, -1): self = .north
            case (1, -1): self = .northEast
            case (1, 0): self = .east
            case (1, 1): self = .southEast
            case (0, 1): self = .south
            case (-1, 1): self = .southWest
            case (-1, 0): self = .west
            case (-1, -1): self = .northWest
            default: self = .centred
            }
        }
    }

    /// A stick's position: 0 left/up, 128 centre, 255 right/down.
    public struct Stick: Hashable, Sendable {
        public var x: UInt8
        public var y: UInt8
        public static let centred = Stick(x: 128, y: 128)
    }

    /// A finger on the touchpad, in its pixels: x 0...1919 (left to right),
    /// y 0...1079 (top to bottom).
    public struct Touch: Hashable, Sendable {
        public static let width: UInt16 = 1920
        public static let height: UInt16 = 1080

        public var x: UInt16
        public var y: UInt16
        /// A touch at the given pixel, clamped to the surface.
        public init(x: UInt16, y: UInt16) {
            self.x = min(x, Self.width - 1)
            self.y = min(y, Self.height - 1)
        }
        /// A touch at x, y in 0...1 (out-of-range values clamp to the rim).
        public init(normalizedX: Double, normalizedY: Double) {
            self.init(x: Self.pixel(normalizedX, Self.width), y: Self.pixel(normalizedY, Self.height))
        }
        private static func pixel(_ fraction: Double, _ size: UInt16) -> UInt16 {
            let scaled = (fraction * Double(size - 1)).rounded()
            return scaled.isNaN ? 0 : UInt16(max(0, min(Double(size - 1), scaled)))
        }
    }

    public var buttons: Buttons = []
    public var dpad: DPad = .centred
    public var leftStick: Stick = .centred
    public var rightStick: Stick = .centred
    /// L2 and R2's travel, 0 released to 255 fully pressed.
    public var leftTrigger: UInt8 = 0
    public var rightTrigger: UInt8 = 0
    /// The finger on the touchpad, or nil.
    public var touch: Touch?
    /// Angular rate in degrees per second about the pad's pitch (x), yaw (y)
    /// and roll (z) axes, as hid-playstation reports them on ABS_RX/RY/RZ.
    public var rotationRate: Vector3 = .zero
    /// Acceleration in g on the pad's x, y and z axes (ABS_X/Y/Z).
    public var acceleration: Vector3 = .zero
    /// The sensors' clock in microseconds; only its differences matter.
    public var sensorTime: UInt64 = 0
    /// The battery's charge, 0...100 percent.
    public var batteryPercent: UInt8 = 100
    /// True while the battery charges.
    public var charging = false

    /// A pad at rest: nothing pressed, sticks centred, battery full.
    public init() {}
}
