import Timebase

extension MappingEngine {
    /// Writes one motion-sensor frame for a snapshot: the axes that changed and `MSC_TIMESTAMP`.
    /// Called only for profiles with `motion-sensors = true`.
    mutating func updateMotionSensors(_ input: ControllerInput, at time: MonotonicTime, into buffer: inout OutputBuffer) {
        let acceleration = input.acceleration
        let rate = input.rotationRate
        output.setAbsolute(EventCode.absX, MotionSensors.accelerationValue(acceleration.x), on: .motion, into: &buffer)
        output.setAbsolute(EventCode.absY, MotionSensors.accelerationValue(acceleration.y), on: .motion, into: &buffer)
        output.setAbsolute(EventCode.absZ, MotionSensors.accelerationValue(acceleration.z), on: .motion, into: &buffer)
        output.setAbsolute(EventCode.absRx, MotionSensors.angularRateValue(rate.x), on: .motion, into: &buffer)
        output.setAbsolute(EventCode.absRy, MotionSensors.angularRateValue(rate.y), on: .motion, into: &buffer)
        output.setAbsolute(EventCode.absRz, MotionSensors.angularRateValue(rate.z), on: .motion, into: &buffer)
        let stamp = motionClock.timestamp(stamp: input.controllerTime, at: time)
        buffer.append(.motion, type: EventType.msc, code: EventCode.mscTimestamp, value: Int32(bitPattern: stamp))
    }
}
