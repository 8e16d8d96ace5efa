#if canImport(Glibc)
import Glibc
#endif
import DaydreamProtocol
import EventVocabulary
import Timebase

/// `gyro = { ... }` in a profile: aiming with the controller's gyro, with the settings gyro
/// players know from JoyShockMapper (each key's JSM name in its comment). Angles are degrees,
/// speeds degrees per second.
public struct GyroSettings: Hashable, Sendable {
    /// Where the gyro's motion goes.
    public enum Output: String, Hashable, Sendable, CaseIterable {
        /// Relative mouse motion (GYRO_OUTPUT = MOUSE).
        case mouse
        /// The gamepad's right stick, for games that refuse mouse and gamepad together.
        case rightStick = "right-stick"
        /// The gamepad's left stick.
        case leftStick = "left-stick"
    }

    /// Which turns count as horizontal and vertical (GYRO_SPACE).
    public enum Space: String, Hashable, Sendable, CaseIterable {
        /// The controller's own axes: yaw about its up axis, pitch about its right axis.
        case local
        /// Yaw about gravity, so a tilted controller still turns horizontally; pitch local.
        case playerTurn = "player-turn"
        /// Horizontal from leaning (rolling) the controller as well as turning it.
        case playerLean = "player-lean"
        /// Yaw about gravity and pitch about the horizontal: the world's axes.
        case worldTurn = "world-turn"
    }

    /// `output` (default mouse).
    public var output = Output.mouse
    /// `on`, `off`, `toggle` (default: always on).
    public var enabling = GyroSwitch.always
    /// `min-sens`, `max-sens` (MIN/MAX_GYRO_SENS; `sens` sets both, GYRO_SENS): output per degree
    /// turned below `min-threshold` and above `max-threshold`, linear in the speed between.
    public var minSens = 1.0
    public var maxSens = 1.0
    /// `min-threshold`, `max-threshold` (MIN/MAX_GYRO_THRESHOLD), deg/s.
    public var minThreshold = 0.0
    public var maxThreshold = 0.0
    /// `counts-per-degree`: mouse counts that turn the game's camera one degree (REAL_WORLD_CALIBRATION).
    /// The default, 1000 per radian, is the air mouse's: on the desktop, sens 1 moves the pointer
    /// 17.45 counts a degree.
    public var countsPerDegree = GyroSettings.desktopCountsPerDegree
    /// `vertical`: factor on the vertical axis.
    public var vertical = 1.0
    /// `cutoff-speed` (GYRO_CUTOFF_SPEED): turns slower than it move nothing; faster ones pass
    /// whole (unless `cutoff-recovery` is above it).
    public var cutoffSpeed = 0.0
    /// `cutoff-recovery` (GYRO_CUTOFF_RECOVERY): when above `cutoff-speed`, a turn between the two
    /// is scaled by (speed - cutoff-speed) / (cutoff-recovery - cutoff-speed), continuous at both ends.
    public var cutoffRecovery = 0.0
    /// `smooth-threshold` (GYRO_SMOOTH_THRESHOLD): input slower than it is smoothed, softly
    /// (fully below half of it, not at all above it).
    public var smoothThreshold = 0.0
    /// `smooth-time` (GYRO_SMOOTH_TIME): the window slow input is averaged over.
    public var smoothTime = TimeSpan.milliseconds(125)
    /// `auto-calibrate`: measure the gyro's bias whenever the controller really rests
    /// (`GyroAutoCalibration`), refining the stored one. Off unless asked for.
    public var autoCalibrate = false
    /// `space` (GYRO_SPACE).
    public var space = Space.local
    /// `invert-x`, `invert-y` (GYRO_INVERT).
    public var invertX = false
    public var invertY = false
    /// `stick-speed`: deg/s of output for full deflection (stick output).
    public var stickSpeed = 360.0
    /// `undeadzone-inner`, `undeadzone-outer` (*_STICK_UNDEADZONE_*): the game's own inner deadzone
    /// undone (the smallest deflection sent) and the largest deflection sent, 0...1.
    public var undeadzoneInner = 0.0
    public var undeadzoneOuter = 1.0
    /// `power` (*_STICK_POWER): the stick's response curve, deflection^power.
    public var power = 1.0

    /// The air mouse's scale: 1000 counts per radian.
    public static let desktopCountsPerDegree = 1000 * UnitConversion.radiansPerDegree

    /// The defaults.
    public init() {}

    /// The sensitivity at angular speed `speed` (deg/s): `min-sens` below `min-threshold`,
    /// `max-sens` above `max-threshold`, linear between.
    public func sensitivity(atSpeed speed: Double) -> Double {
        guard maxThreshold > minThreshold else { return speed > minThreshold ? maxSens : minSens }
        let fraction = min(max((speed - minThreshold) / (maxThreshold - minThreshold), 0), 1)
        return minSens + (maxSens - minSens) * fraction
    }

    /// The factor the cutoff leaves on a turn of `speed` deg/s, as JoyShockMapper's
    /// GYRO_CUTOFF_SPEED and GYRO_CUTOFF_RECOVERY: with `cutoff-recovery` above `cutoff-speed`,
    /// (speed - cutoff-speed) / (cutoff-recovery - cutoff-speed) within 0...1; otherwise 0 below
    /// `cutoff-speed` and 1 from it on.
    public func cutoffFactor(atSpeed speed: Double) -> Double {
        if cutoffRecovery > cutoffSpeed {
            return min(max((speed - cutoffSpeed) / (cutoffRecovery - cutoffSpeed), 0), 1)
        }
        return cutoffSpeed > 0 && speed < cutoffSpeed ? 0 : 1
    }

    /// A stick deflection (0...1) for an output speed of `speed` deg/s: scaled by `stick-speed`,
    /// shaped by `power`, then spread between `undeadzone-inner` and `undeadzone-outer`.
    public func stickDeflection(atSpeed speed: Double) -> Double {
        guard speed > 0, stickSpeed > 0 else { return 0 }
        let linear = min(speed / stickSpeed, 1)
        let shaped = power == 1 ? linear : pow(linear, power)
        return undeadzoneInner + (undeadzoneOuter - undeadzoneInner) * shaped
    }
}

extension GyroSettings.Output {
    /// The gamepad axes a stick output moves: ABS_RX/ABS_RY or ABS_X/ABS_Y.
    public var stickAxes: (x: UInt16, y: UInt16) {
        self == .leftStick ? (EventCode.absX, EventCode.absY) : (EventCode.absRx, EventCode.absRy)
    }
}
