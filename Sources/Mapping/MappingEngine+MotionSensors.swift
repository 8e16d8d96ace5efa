import EventVocabulary
import Timebase

extension MappingEngine {
    /// Writes one motion-sensor frame for a snapshot: the axes that changed and `MSC_TIMESTAMP`.
    /// Called only for profiles with `motion-sensors = true`; inlined into `update`, its one caller.
    @inline(__always)
    mutating func updateMotionSensors(_ input: ControllerInput, at time: MonotonicTime, into buffer: inout OutputBuffer) {
        // A packet's counts convert in integers (exactly as their scaled values would), the
        // common case; values set another way go through their SI units.
        let values: [6 of Int32]
        if let counts = input.sensorCounts {
            values = [
                MotionSensors.accelerationValue(count: counts.acceleration.x),
                MotionSensors.accelerationValue(count: counts.acceleration.y),
                MotionSensors.accelerationValue(count: counts.acceleration.z),
                MotionSensors.angularRateValue(count: counts.gyro.x),
                MotionSensors.angularRateValue(count: counts.gyro.y),
                MotionSensors.angularRateValue(count: counts.gyro.z),
            ]
        } else {
            let acceleration = input.acceleration
            let rate = input.rotationRate
            values = [
                MotionSensors.accelerationValue(acceleration.x),
                MotionSensors.accelerationValue(acceleration.y),
                MotionSensors.accelerationValue(acceleration.z),
                MotionSensors.angularRateValue(rate.x),
                MotionSensors.angularRateValue(rate.y),
                MotionSensors.angularRateValue(rate.z),
            ]
        }
        // Room for the frame's seven events made once, rather than checked before each.
        buffer.reserve(7)
        output.setAbsoluteReserved(EventCode.absX, values[0], on: .motion, into: &buffer)
        output.setAbsoluteReserved(EventCode.absY, values[1], on: .motion, into: &buffer)
        output.setAbsoluteReserved(EventCode.absZ, values[2], on: .motion, into: &buffer)
        output.setAbsoluteReserved(EventCode.absRx, values[3], on: .motion, into: &buffer)
        output.setAbsoluteReserved(EventCode.absRy, values[4], on: .motion, into: &buffer)
        output.setAbsoluteReserved(EventCode.absRz, values[5], on: .motion, into: &buffer)
        let stamp = motionClock.timestamp(stamp: input.controllerTime, at: time)
        buffer.appendReserved(.motion, type: EventType.msc, code: EventCode.mscTimestamp, value: Int32(bitPattern: stamp))
    }
}
