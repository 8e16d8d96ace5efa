/// One 20-byte input notification from a Daydream View controller, as raw counts.
///
/// The layout is a big-endian bit string (bit 0 is the most significant bit of
/// byte 0); see `PacketLayout`. Decoding and encoding allocate nothing.
public struct DaydreamPacket: Hashable, Sendable {
    /// Milliseconds, wrapping at 512.
    public var time: UInt16
    /// Sequence number, wrapping at 32.
    public var sequence: UInt8
    /// Rotation vector (axis times angle), 13-bit signed counts; see `Scale.orientation`.
    public var orientation: RawVector
    /// Acceleration, 13-bit signed counts; see `Scale.acceleration`.
    public var acceleration: RawVector
    /// Rotation rate, 13-bit signed counts; see `Scale.gyro`.
    public var gyro: RawVector
    /// Touch x, 0 = left, 255 = right.
    public var touchX: UInt8
    /// Touch y, 0 = top, 255 = bottom.
    public var touchY: UInt8
    /// The five buttons (the low 5 bits of byte 18).
    public var buttons: DaydreamButtons
    /// Byte 19: a status byte, not buttons.
    public var status: UInt8

    /// A packet with every field given; values wider than their field are masked when encoded.
    public init(
        time: UInt16 = 0, sequence: UInt8 = 0,
        orientation: RawVector = .zero, acceleration: RawVector = .zero, gyro: RawVector = .zero,
        touchX: UInt8 = 0, touchY: UInt8 = 0,
        buttons: DaydreamButtons = [], status: UInt8 = 0
    ) {
        self.time = time
        self.sequence = sequence
        self.orientation = orientation
        self.acceleration = acceleration
        self.gyro = gyro
        self.touchX = touchX
        self.touchY = touchY
        self.buttons = buttons
        self.status = status
    }

    /// True when a finger is on the touchpad: both raw coordinates at 0 mean "no finger".
    @inlinable public var isTouching: Bool { touchX != 0 || touchY != 0 }
}

/// Three raw 13-bit signed counts.
public struct RawVector: Hashable, Sendable {
    public var x: Int16
    public var y: Int16
    public var z: Int16

    public init(_ x: Int16, _ y: Int16, _ z: Int16) {
        self.x = x
        self.y = y
        self.z = z
    }

    public static let zero = RawVector(0, 0, 0)
}

/// The controller's buttons as packed in byte 18.
public struct DaydreamButtons: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue & 0x1F }

    /// The touchpad press.
    public static let click = DaydreamButtons(rawValue: 0x01)
    public static let home = DaydreamButtons(rawValue: 0x02)
    public static let app = DaydreamButtons(rawValue: 0x04)
    public static let volumeDown = DaydreamButtons(rawValue: 0x08)
    public static let volumeUp = DaydreamButtons(rawValue: 0x10)

    /// Every button with its name, in bit order.
    public static let named: [(name: String, button: DaydreamButtons)] = [
        ("click", .click), ("home", .home), ("app", .app),
        ("volume-down", .volumeDown), ("volume-up", .volumeUp),
    ]

    /// The names of the buttons in this set, in bit order.
    public var names: [String] {
        Self.named.filter { contains($0.button) }.map(\.name)
    }
}
