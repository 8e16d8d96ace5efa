/// One input notification from a controller of any family, as raw counts: what every consumer
/// after the decoder reads (`ControllerPacket` is the same type).
///
/// The Daydream's 20 bytes are a big-endian bit string (bit 0 is the most significant bit of
/// byte 0); see `PacketLayout`. Other families' decoders (`ControllerFamily.decode`) fill the
/// same fields: `family` says whose packet it is, `scale` what a count is worth, and a packet
/// that holds several IMU samples (the Gear VR's three) keeps the earlier ones in
/// `earlierSamples`; the feed hands each sample on as a packet of its own (`forSample(_:)`).
/// Decoding and encoding allocate nothing.
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
    /// Touch x, 0 = left, 1 / `scale.touch` (255 on a Daydream) = right.
    public var touchX: UInt16
    /// Touch y, 0 = top, 1 / `scale.touch` = bottom.
    public var touchY: UInt16
    /// The buttons held (a Daydream's are the low 5 bits of byte 18).
    public var buttons: DaydreamButtons
    /// Byte 19: a status byte, not buttons.
    public var status: UInt8
    /// Whose packet this is.
    public var family: ControllerFamilyID
    /// Which clock `time` and `sampleTime` are: the Daydream's 512 ms one, microseconds, or none.
    public var clock: SampleClock
    /// The controller's clock in microseconds for `acceleration` and `gyro`, when `clock` is `.microseconds`.
    public var sampleTime: UInt32
    /// How many IMU samples the notification held (1 on a Daydream, 3 on a Gear VR).
    public var sampleCount: UInt8
    /// Which of them `acceleration`, `gyro` and `sampleTime` are (the last, when decoded).
    public var sampleIndex: UInt8
    /// The samples before the last, oldest first (`sampleCount - 1` of them are used).
    public var earlierSamples: EarlierSamples
    /// The battery level in percent, when the packet carries one (the Gear VR's does).
    public var battery: UInt8?
    /// What only some families send: kept so their packets encode back to the same bytes.
    public var extras: PacketExtras

    /// A packet with every field given; values wider than their field are masked when encoded.
    public init(
        time: UInt16 = 0, sequence: UInt8 = 0,
        orientation: RawVector = .zero, acceleration: RawVector = .zero, gyro: RawVector = .zero,
        touchX: UInt16 = 0, touchY: UInt16 = 0,
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
        family = .daydream
        clock = .milliseconds512
        sampleTime = 0
        sampleCount = 1
        sampleIndex = 0
        earlierSamples = EarlierSamples()
        battery = nil
        extras = PacketExtras()
    }

    /// True when a finger is on the touchpad: both raw coordinates at 0 mean "no finger"
    /// (other families' decoders zero them when their touching flag is off).
    @inlinable public var isTouching: Bool { touchX != 0 || touchY != 0 }

    /// What one count of this packet is worth: its family's (the Daydream's folds to constants;
    /// not stored, so the packet the daemon copies stays small).
    @inlinable public var scale: IMUScale {
        family == .daydream ? .daydream : otherFamilyScale
    }

    /// `scale` of a packet of another family than the Daydream: looked up in a table made once
    /// (building the family's description was some thousand instructions a read), so kept out of line.
    @usableFromInline @inline(never) var otherFamilyScale: IMUScale { ControllerFamily.scale(of: family) }

    /// The controller's clock for `acceleration` and `gyro`, or nil when the family has none.
    @inlinable public var stamp: ControllerStamp? {
        switch clock {
        case .milliseconds512: ControllerStamp(milliseconds: time)
        case .microseconds: ControllerStamp(microseconds: sampleTime)
        case .none: nil
        }
    }

    /// Whether this is the packet as decoded (its last sample), not an earlier sample's copy.
    @inlinable public var isLatestSample: Bool { Int(sampleIndex) + 1 >= Int(sampleCount) }

    /// Sample `index` (0 = the oldest) of a packet as decoded.
    @inlinable
    public func sample(_ index: Int) -> IMUSample {
        if index + 1 >= Int(sampleCount) { return IMUSample(time: sampleTime, acceleration: acceleration, gyro: gyro) }
        return index == 0 ? earlierSamples.first : earlierSamples.second
    }

    /// A copy of this packet that shows sample `index` as its `acceleration`, `gyro` and time:
    /// what the feed hands on for each sample of a packet that holds several.
    @inlinable
    public func forSample(_ index: Int) -> DaydreamPacket {
        var copy = self
        let chosen = sample(index)
        copy.acceleration = chosen.acceleration
        copy.gyro = chosen.gyro
        copy.sampleTime = chosen.time
        copy.time = UInt16(truncatingIfNeeded: chosen.time / 1000) & 511
        copy.sampleIndex = UInt8(truncatingIfNeeded: index)
        return copy
    }
}

/// Which clock a packet's sample times are on.
public enum SampleClock: UInt8, Hashable, Sendable {
    /// `time`: milliseconds wrapping at 512 (the Daydream).
    case milliseconds512
    /// `sampleTime`: microseconds on 32 bits (the Gear VR).
    case microseconds
    /// No clock (the Oculus Go's packets carry a counter): motion goes by arrival time.
    case none
}

/// Fields only some families send, kept so a packet encodes back to its bytes.
public struct PacketExtras: Hashable, Sendable {
    /// The magnetometer's raw counts (Gear VR, Oculus Go).
    public var magnetometer: RawVector
    /// Degrees Celsius (Gear VR).
    public var temperature: UInt8
    /// A 16-bit packet counter (Oculus Go).
    public var counter: UInt16
    /// The touch coordinates as sent, also while no finger is down (`touchX`/`touchY` are 0 then).
    public var rawTouchX: UInt16
    public var rawTouchY: UInt16
    /// The touch state bits as the family packs them (the Gear VR's high nibble of byte 54).
    public var touchFlags: UInt8
    /// The bits of the buttons byte that are not buttons (the Gear VR's 0x40 idle flag).
    public var buttonFlags: UInt8
    /// Set by a family's decoder: the raw touch and flags are as sent. A packet made by hand
    /// (a test, an emulator) has none, and encodes its touch from `touchX`/`touchY`.
    public var isDecoded: Bool

    /// Nothing sent: every field zero.
    @inlinable
    public init() {
        magnetometer = RawVector(0, 0, 0)
        temperature = 0
        counter = 0
        rawTouchX = 0
        rawTouchY = 0
        touchFlags = 0
        buttonFlags = 0
        isDecoded = false
    }
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

/// The buttons of every family: the Daydream's five as packed in its byte 18, then the
/// Gear VR's and the Oculus Go's trigger and back.
public struct DaydreamButtons: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue & 0x7F }

    /// The touchpad press.
    public static let click = DaydreamButtons(rawValue: 0x01)
    public static let home = DaydreamButtons(rawValue: 0x02)
    public static let app = DaydreamButtons(rawValue: 0x04)
    public static let volumeDown = DaydreamButtons(rawValue: 0x08)
    public static let volumeUp = DaydreamButtons(rawValue: 0x10)
    /// The trigger (Gear VR, Oculus Go).
    public static let trigger = DaydreamButtons(rawValue: 0x20)
    /// The back button (Gear VR, Oculus Go).
    public static let back = DaydreamButtons(rawValue: 0x40)

    /// Every button with its name, in bit order.
    public static let named: [(name: String, button: DaydreamButtons)] = [
        ("click", .click), ("home", .home), ("app", .app),
        ("volume-down", .volumeDown), ("volume-up", .volumeUp),
        ("trigger", .trigger), ("back", .back),
    ]

    /// The names of the buttons in this set, in bit order.
    public var names: [String] {
        Self.named.filter { contains($0.button) }.map(\.name)
    }
}
