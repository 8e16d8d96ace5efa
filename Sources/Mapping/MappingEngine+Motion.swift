#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DaydreamProtocol
import EventVocabulary
import Timebase

/// Air-mouse and tilt state.
struct MotionState: Sendable {
    /// When the last snapshot was mapped (for integrating the gyro), nil before the first,
    /// and the controller's stamp on it.
    var lastTime: MonotonicTime?
    var lastStamp: ControllerStamp?
    /// Fractions of a pointer count not yet emitted.
    var remainderX = 0.0
    var remainderY = 0.0
    /// The tilt's zero: the orientation recentred on, nil until the first snapshot.
    var zero: Quaternion?
    /// Gyro aiming's state (carried fractions, the smoothing window), for the profile's settings.
    var gyro = GyroAim(settings: GyroSettings())
    /// Whether a `toggle` has the gyro on, and the buttons of the last packet (for its edges).
    var gyroToggledOn = true
    var gyroPreviousButtons: DaydreamButtons = []
    /// Whether the gyro aimed on the last packet (a stick output is centred once when it stops).
    var gyroWasOn = false

    /// Forgets the pointer's gesture; keeps the tilt's zero.
    mutating func resetGesture() {
        lastTime = nil
        lastStamp = nil
        remainderX = 0
        remainderY = 0
        gyro.reset()
        gyroWasOn = false
    }
}

extension MappingEngine {
    /// The longest gyro interval integrated at once, so a gap in reports never throws the pointer.
    static let longestGyroStep = 0.05

    mutating func updateMotion(_ input: ControllerInput, at time: MonotonicTime, into buffer: inout OutputBuffer) {
        if prepared.aimsWithGyro, let gyro = prepared.profile.gyro {
            updateGyro(gyro, input, at: time, into: &buffer)
        } else if prepared.airMouseCanPoint {
            updateAirMouse(input, at: time)
        }
        if recenterRequested || motion.zero == nil {
            if recenterRequested { notices.append(.recentered) }
            recenterRequested = false
            motion.zero = input.orientation
            pointer.filtersNeedRestart = true
        }
        if let tilt = prepared.profile.tilt, let zero = motion.zero {
            output.setAbsolute(tilt.axis, Self.tiltValue(input.orientation, zero: zero, tilt), on: tilt.device, into: &buffer)
        }
    }

    private mutating func updateAirMouse(_ input: ControllerInput, at time: MonotonicTime) {
        let settings = prepared.profile.airMouse
        let last = motion.lastTime
        let lastStamp = motion.lastStamp
        motion.lastTime = time
        motion.lastStamp = input.controllerTime
        // Not while the bias is measured: the player holds the controller still for it.
        guard settings.always || airMouseHolds > 0, calibration == nil else {
            motion.remainderX = 0
            motion.remainderY = 0
            return
        }
        guard let last else { return }
        // By the controller's clock where plausible, so packets read bunched turn the pointer evenly.
        let interval = SampleInterval.between(lastStamp, input.controllerTime, arrival: time - last)
        let seconds = min(max(interval.seconds, 0), Self.longestGyroStep)
        let gain = settings.speed * 1000 * seconds
        // Turning left (positive about the vertical y axis) moves left; tipping up (positive about x) moves up.
        let rate = input.rotationRate
        var dx = -Self.withoutDrift(rate.y - gyroBias.y, settings.deadzone) * gain
        var dy = -Self.withoutDrift(rate.x - gyroBias.x, settings.deadzone) * gain
        if settings.invertX { dx = -dx }
        if settings.invertY { dy = -dy }
        output.addRelative(EventCode.relX, takeWholeCounts(dx, remainder: &motion.remainderX), on: settings.device)
        output.addRelative(EventCode.relY, takeWholeCounts(dy, remainder: &motion.remainderY), on: settings.device)
    }

    /// A rate with the drift dead zone removed: 0 inside it, shifted towards 0 outside.
    static func withoutDrift(_ rate: Double, _ deadzone: Double) -> Double {
        if abs(rate) <= deadzone { return 0 }
        return rate > 0 ? rate - deadzone : rate + deadzone
    }

    /// The tilt axis value for an orientation relative to the zero.
    static func tiltValue(_ orientation: Quaternion, zero: Quaternion, _ tilt: TiltSettings) -> Int32 {
        let relative = zero.conjugate * orientation
        // Only the angle the tilt reads (each is an `asin` or an `atan2`).
        let radians: Double
        switch tilt.source {
        case .roll: radians = -relative.roll
        case .pitch: radians = -relative.pitch
        case .yaw: radians = -relative.yaw
        }
        var degrees = UnitConversion.degrees(radians: radians)
        if tilt.invert { degrees = -degrees }
        let magnitude = abs(degrees)
        guard magnitude > tilt.deadzone else { return 0 }
        let span = max(tilt.range - tilt.deadzone, 1e-6)
        let fraction = min(1, (magnitude - tilt.deadzone) / span)
        return stickValue(degrees < 0 ? -fraction : fraction)
    }
}
