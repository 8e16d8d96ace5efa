import DaydreamProtocol

/// One controller's gyro aiming, packet by packet: the rate in the chosen space, smoothed, cut
/// off, scaled by the sensitivity curve, then as mouse counts (fractions carried to the
/// next packet, so no slow turn is lost to rounding) or a stick deflection. Pure: the engine
/// gives it the rates, gravity and the time between packets.
public struct GyroAim: Hashable, Sendable {
    /// The settings.
    public let settings: GyroSettings
    private var smoothing = GyroSmoothing()
    private var remainder = (x: 0.0, y: 0.0)

    public static func == (lhs: GyroAim, rhs: GyroAim) -> Bool {
        lhs.settings == rhs.settings && lhs.smoothing == rhs.smoothing && lhs.remainder == rhs.remainder
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(settings)
        hasher.combine(smoothing)
        hasher.combine(remainder.x)
        hasher.combine(remainder.y)
    }

    /// Aiming with `settings`, nothing carried.
    public init(settings: GyroSettings) {
        self.settings = settings
    }

    /// The turn of one packet, in output degrees per second: horizontal (positive: right) and
    /// vertical (positive: down, as REL_Y), from `rate` (deg/s, the controller's axes: x right,
    /// y up out of the touchpad, z toward the player) and `gravity` (the accelerometer, any unit;
    /// zero when unknown) over `seconds`.
    public mutating func turn(rate: Vector3, gravity: Vector3, seconds: Double) -> (x: Double, y: Double) {
        let (yaw, pitch) = Self.inSpace(settings.space, rate: rate, gravity: gravity)
        // JoyShockMapper's order: smoothing reads the speed of the turn in its space, the cutoff
        // the speed smoothing leaves, and the curve the speed the cutoff leaves.
        var (x, y) = (-yaw, -pitch)
        (x, y) = smoothing.smooth((x, y), speed: Self.speed(x, y), seconds: seconds, threshold: settings.smoothThreshold,
                                  window: settings.smoothTime.seconds)
        let cutoff = settings.cutoffFactor(atSpeed: Self.speed(x, y))
        x *= cutoff
        y *= cutoff
        let sensitivity = settings.sensitivity(atSpeed: Self.speed(x, y))
        x *= sensitivity
        y *= sensitivity * settings.vertical
        if settings.invertX { x = -x }
        if settings.invertY { y = -y }
        return (x, y)
    }

    /// The speed (deg/s) of a turn of `x` deg/s horizontally and `y` vertically.
    static func speed(_ x: Double, _ y: Double) -> Double {
        (x * x + y * y).squareRoot()
    }

    /// Whole mouse counts for a turn of `degrees`, the fractions kept for the next packet.
    public mutating func mouseCounts(degrees: (x: Double, y: Double)) -> (x: Int32, y: Int32) {
        let exactX = degrees.x * settings.countsPerDegree + remainder.x
        let exactY = degrees.y * settings.countsPerDegree + remainder.y
        // A NaN or infinity (a broken bias, a wild rate) must not trap in the conversion nor
        // stay in the carried fractions: it moves nothing and is dropped.
        guard exactX.isFinite, exactY.isFinite else {
            remainder = (0, 0)
            return (0, 0)
        }
        let wholeX = exactX.rounded(.towardZero)
        let wholeY = exactY.rounded(.towardZero)
        remainder = (exactX - wholeX, exactY - wholeY)
        return (Self.counts(wholeX), Self.counts(wholeY))
    }

    /// `value` as whole counts, within ±1e9; NaN and infinities are 0.
    static func counts(_ value: Double) -> Int32 {
        guard value.isFinite else { return 0 }
        return Int32(max(min(value, 1e9), -1e9).rounded(.towardZero))
    }

    /// The stick's deflection for an output turn of `rate` deg/s: each axis -1...1, along the
    /// turn's direction.
    public func stick(rate: (x: Double, y: Double)) -> (x: Double, y: Double) {
        let speed = (rate.x * rate.x + rate.y * rate.y).squareRoot()
        guard speed > 0 else { return (0, 0) }
        let deflection = settings.stickDeflection(atSpeed: speed)
        return (rate.x / speed * deflection, rate.y / speed * deflection)
    }

    /// Forgets the carried fractions and the smoothing window (the gyro was switched off).
    public mutating func reset() {
        remainder = (0, 0)
        smoothing.reset()
    }

    /// Yaw and pitch rates (deg/s, right-handed about up and right) of `rate` in `space`.
    static func inSpace(_ space: GyroSettings.Space, rate: Vector3, gravity: Vector3) -> (yaw: Double, pitch: Double) {
        let length = gravity.length
        guard space != .local, length > 0 else { return (rate.y, rate.x) }
        let up = Vector3(x: gravity.x / length, y: gravity.y / length, z: gravity.z / length)
        // Gravity's part in the controller's y-z plane: turning about it is a horizontal turn
        // whatever the controller's pitch, and pitching (about x) never leaks into it.
        let plane = (up.y * up.y + up.z * up.z).squareRoot()
        switch space {
        case .local:
            return (rate.y, rate.x)
        case .playerTurn:
            guard plane > 0 else { return (rate.y, rate.x) }
            return ((rate.y * up.y + rate.z * up.z) / plane, rate.x)
        case .playerLean:
            guard plane > 0 else { return (rate.y, rate.x) }
            // Leaning: the turn about the horizontal axis in that plane (the controller's forward axis when flat).
            return ((rate.z * up.y - rate.y * up.z) / plane, rate.x)
        case .worldTurn:
            let yaw = rate.x * up.x + rate.y * up.y + rate.z * up.z
            // The horizontal right axis: the controller's x with gravity's part removed.
            let right = Vector3(x: 1 - up.x * up.x, y: -up.x * up.y, z: -up.x * up.z)
            let rightLength = right.length
            guard rightLength > 0 else { return (yaw, rate.x) }
            return (yaw, (rate.x * right.x + rate.y * right.y + rate.z * right.z) / rightLength)
        }
    }
}

extension GyroAim {
    /// `inSpace` for tests.
    public static func inSpaceForTests(_ space: GyroSettings.Space, rate: Vector3, gravity: Vector3) -> (yaw: Double, pitch: Double) {
        inSpace(space, rate: rate, gravity: gravity)
    }
}
