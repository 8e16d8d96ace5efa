#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DaydreamProtocol
import EventVocabulary
import Timebase

/// A flick's progress: its whole turn, when it started, how much of it is out; and the thumb's
/// angle on the rim while it follows it round.
struct FlickState: Sendable {
    var turn = 0.0
    var start: MonotonicTime?
    var emitted = 0.0
    var rimAngle: Double?
    var remainder = 0.0
}

extension MappingEngine {
    /// Flick stick for one packet: landing on the rim starts a flick to the touched direction,
    /// spread evenly over `flick-time` by the packets' arrival; moving along the rim turns 1:1.
    mutating func updateFlick(_ touch: TouchPoint?, _ options: FlickOptions, at time: MonotonicTime) {
        var degrees = 0.0
        if let touch, PadPosition(touch).radius >= options.rim {
            let position = PadPosition(touch)
            // 0 straight up (ahead), clockwise positive.
            let angle = UnitConversion.degrees(radians: atan2(position.x, -position.y))
            if let last = touchpad.flick.rimAngle {
                var delta = angle - last
                if delta > 180 { delta -= 360 } else if delta < -180 { delta += 360 }
                degrees += delta
            } else {
                degrees += touchpad.flick.emittedRest
                touchpad.flick.turn = options.snapped(angle)
                touchpad.flick.start = time
                touchpad.flick.emitted = 0
            }
            touchpad.flick.rimAngle = angle
        } else {
            touchpad.flick.rimAngle = nil
        }
        if let start = touchpad.flick.start {
            let duration = max(options.flickTime.seconds, 1e-6)
            let progress = min(max((time - start).seconds / duration, 0), 1)
            let due = touchpad.flick.turn * progress
            degrees += due - touchpad.flick.emitted
            touchpad.flick.emitted = due
            if progress >= 1 { touchpad.flick.start = nil }
        }
        guard degrees != 0 else { return }
        let countsPerDegree = options.countsPerDegree ?? prepared.profile.gyro?.countsPerDegree ?? GyroSettings.desktopCountsPerDegree
        let exact = degrees * countsPerDegree + touchpad.flick.remainder
        let whole = exact.rounded(.towardZero)
        touchpad.flick.remainder = exact - whole
        output.addRelative(EventCode.relX, Int32(clamping: Int(max(min(whole, 1e9), -1e9))), on: .mouse)
    }
}

extension FlickState {
    /// What is left of an unfinished flick when a new one starts: it is sent at once.
    var emittedRest: Double { start == nil ? 0 : turn - emitted }
}
