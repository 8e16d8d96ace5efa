/// Which kind of controller a packet came from: a small number, so a packet carries it for free.
///
/// Each family's number is given by its description (`ControllerFamily`); `ControllerFamily.all`
/// is the one list, and nothing else switches over families.
public struct ControllerFamilyID: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8

    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    // Computed and inlinable, so a comparison on the packet path folds to one of a byte rather
    // than a call to a lazy global's accessor.

    /// Google's Daydream View controller.
    @inlinable public static var daydream: ControllerFamilyID { ControllerFamilyID(rawValue: 0) }
    /// Samsung's Gear VR controller.
    @inlinable public static var gearVR: ControllerFamilyID { ControllerFamilyID(rawValue: 1) }
    /// The Oculus Go controller (experimental).
    @inlinable public static var oculusGo: ControllerFamilyID { ControllerFamilyID(rawValue: 2) }

    /// The family's description.
    public var family: ControllerFamily { ControllerFamily.described(by: self) }
    /// The family's name, as configs, recordings and the command line spell it.
    public var name: String { family.name }
}

/// How many units of the motion sensors one count is, for one family.
public struct IMUScale: Hashable, Sendable {
    /// m/s^2 per acceleration count.
    public var acceleration: Double
    /// rad/s per gyro count.
    public var gyro: Double
    /// The touchpad's 0...1 per touch count (1 / the full range in counts).
    public var touch: Double

    @inlinable
    public init(acceleration: Double, gyro: Double, touch: Double) {
        self.acceleration = acceleration
        self.gyro = gyro
        self.touch = touch
    }

    /// The Daydream's: 8 g / 4095, 2048 / 4095 deg/s, touch 0...255.
    @inlinable public static var daydream: IMUScale {
        IMUScale(acceleration: Scale.acceleration, gyro: Scale.gyro, touch: Scale.touch)
    }
}

/// The controller's own clock when a sample was taken.
///
/// `ticks` counts `microsecondsPerTick` each and wraps where `wrapMask` says: the Daydream's
/// time field is milliseconds wrapping at 512 (mask 511), the Gear VR's microseconds on 32 bits.
public struct ControllerStamp: Hashable, Sendable {
    public var ticks: UInt32
    public var wrapMask: UInt32
    public var microsecondsPerTick: UInt32

    @inlinable
    public init(ticks: UInt32, wrapMask: UInt32, microsecondsPerTick: UInt32) {
        self.ticks = ticks
        self.wrapMask = wrapMask
        self.microsecondsPerTick = microsecondsPerTick
    }

    /// A Daydream time field: milliseconds wrapping at 512.
    @inlinable
    public init(milliseconds: UInt16) {
        self.init(ticks: UInt32(milliseconds & 511), wrapMask: 511, microsecondsPerTick: 1000)
    }

    /// A 32-bit microsecond clock (the Gear VR's).
    @inlinable
    public init(microseconds: UInt32) {
        self.init(ticks: microseconds, wrapMask: .max, microsecondsPerTick: 1)
    }

    /// Microseconds from `earlier` to this stamp, modulo the clock's wrap; nil when the two
    /// stamps are of different clocks.
    @inlinable @inline(__always)
    public func microseconds(since earlier: ControllerStamp) -> Int64? {
        guard earlier.wrapMask == wrapMask, earlier.microsecondsPerTick == microsecondsPerTick else { return nil }
        return Int64((ticks &- earlier.ticks) & wrapMask) * Int64(microsecondsPerTick)
    }

    /// The clock's whole period in microseconds.
    @inlinable public var periodMicroseconds: Int64 { (Int64(wrapMask) + 1) * Int64(microsecondsPerTick) }
}

/// The samples of a packet before its last (the Gear VR's first and second of three).
public struct EarlierSamples: Hashable, Sendable {
    public var first: IMUSample
    public var second: IMUSample

    @inlinable
    public init(_ first: IMUSample, _ second: IMUSample) {
        self.first = first
        self.second = second
    }

    /// None (a packet of one sample): built in line, as every decoded packet holds one.
    @inlinable
    public init() {
        let none = IMUSample(time: 0, acceleration: RawVector(0, 0, 0), gyro: RawVector(0, 0, 0))
        self.init(none, none)
    }
}

/// One IMU sample of a packet that holds several (the Gear VR's three).
public struct IMUSample: Hashable, Sendable {
    /// The controller's clock, microseconds.
    public var time: UInt32
    public var acceleration: RawVector
    public var gyro: RawVector

    @inlinable
    public init(time: UInt32 = 0, acceleration: RawVector = .zero, gyro: RawVector = .zero) {
        self.time = time
        self.acceleration = acceleration
        self.gyro = gyro
    }

    public static let zero = IMUSample()
}
