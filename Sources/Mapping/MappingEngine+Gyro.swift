import DaydreamProtocol
import EventVocabulary
import Timebase

extension MappingEngine {
    /// Gyro aiming for one packet: the time since the last one by the controller's clock (as the
    /// air mouse takes it), the switch, then `GyroAim`'s turn as mouse counts or a stick deflection.
    mutating func updateGyro(_ settings: GyroSettings, _ input: ControllerInput, at time: MonotonicTime, into buffer: inout OutputBuffer) {
        let last = motion.lastTime
        let lastStamp = motion.lastStamp
        motion.lastTime = time
        motion.lastStamp = input.controllerTime
        let on = settings.enabling.isOn(buttons: input.buttons, previous: motion.gyroPreviousButtons,
                                        touching: input.touch != nil, toggledOn: &motion.gyroToggledOn)
        motion.gyroPreviousButtons = input.buttons
        // Not while the bias is measured: the player holds the controller still for it.
        guard on, calibration == nil, let last else {
            if motion.gyroWasOn { stopGyro(settings, into: &buffer) }
            motion.gyroWasOn = false
            return
        }
        motion.gyroWasOn = true
        let interval = SampleInterval.between(lastStamp, input.controllerTime, arrival: time - last)
        let seconds = min(max(interval.seconds, 0), Self.longestGyroStep)
        let measured = input.rotationRate
        let rate = Vector3(x: measured.x - gyroBias.x, y: measured.y - gyroBias.y, z: measured.z - gyroBias.z)
        let degrees = UnitConversion.degrees(radians: rate)
        // In place: a copy of the aim would copy its smoothing window on every packet.
        let turn = motion.gyro.turn(rate: degrees, gravity: input.acceleration, seconds: seconds)
        switch settings.output {
        case .mouse:
            let counts = motion.gyro.mouseCounts(degrees: (turn.x * seconds, turn.y * seconds))
            output.addRelative(EventCode.relX, counts.x, on: .mouse)
            output.addRelative(EventCode.relY, counts.y, on: .mouse)
        case .rightStick, .leftStick:
            let deflection = motion.gyro.stick(rate: turn)
            let axes = settings.output.stickAxes
            output.setAbsolute(axes.x, stickValue(deflection.x), on: .gamepad, into: &buffer)
            output.setAbsolute(axes.y, stickValue(deflection.y), on: .gamepad, into: &buffer)
        }
    }

    /// The gyro stopped aiming: its fractions and smoothing are forgotten, a stick is centred.
    private mutating func stopGyro(_ settings: GyroSettings, into buffer: inout OutputBuffer) {
        motion.gyro.reset()
        guard settings.output != .mouse else { return }
        let axes = settings.output.stickAxes
        output.setAbsolute(axes.x, 0, on: .gamepad, into: &buffer)
        output.setAbsolute(axes.y, 0, on: .gamepad, into: &buffer)
    }
}
