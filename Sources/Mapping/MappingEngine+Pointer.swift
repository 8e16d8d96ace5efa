import DaydreamProtocol
import EventVocabulary
import Timebase

/// The absolute pointer's filters and the packet time they run on.
struct PointerState: Sendable {
    var x: OneEuroFilter?
    var y: OneEuroFilter?
    /// Seconds of packet time since the first sample (`SampleInterval`: the stamps where plausible).
    var seconds = 0.0
    var lastTime: MonotonicTime?
    var lastStamp: ControllerStamp?
    /// Set when the zero is taken (at the start and on recentring) and when the profile's pointer
    /// settings change: the next packet starts both filters afresh. A flag set where those change,
    /// rather than a comparison of both on every packet.
    var filtersNeedRestart = true
}

extension MappingEngine {
    /// Moves the absolute pointer to the orientation relative to the zero, filtered.
    /// Called only for profiles with `pointer = { ... }`, after `updateMotion` has taken the zero.
    @inline(__always)
    mutating func updatePointer(_ settings: PointerSettings, _ input: ControllerInput, at time: MonotonicTime,
                                into buffer: inout OutputBuffer) {
        guard let zero = motion.zero else { return }
        if let lastTime = pointer.lastTime {
            let interval = SampleInterval.between(pointer.lastStamp, input.controllerTime, arrival: time - lastTime)
            pointer.seconds += max(interval.seconds, 0)
        }
        pointer.lastTime = time
        pointer.lastStamp = input.controllerTime
        if pointer.filtersNeedRestart {
            pointer.filtersNeedRestart = false
            pointer.x = settings.filter
            pointer.y = settings.filter
        }
        let angles = AbsolutePointer.degrees(input.orientation, zero: zero)
        let x = pointer.x?.filter(angles.x, at: pointer.seconds) ?? angles.x
        let y = pointer.y?.filter(angles.y, at: pointer.seconds) ?? angles.y
        output.setAbsolute(EventCode.absX, AbsolutePointer.coordinate(x, fieldOfView: settings.fieldOfViewX), on: .pointer, into: &buffer)
        output.setAbsolute(EventCode.absY, AbsolutePointer.coordinate(y, fieldOfView: settings.fieldOfViewY), on: .pointer, into: &buffer)
    }
}
