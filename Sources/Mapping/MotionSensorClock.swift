import DaydreamProtocol
import Timebase

/// `MSC_TIMESTAMP` for the motion-sensor device: microseconds that keep increasing across the
/// packet time's wrap at 512 ms.
///
/// Each sample advances it by the interval since the one before, from the controller's own
/// clock where plausible (`SampleInterval`: the stamps' difference modulo 512 ms, or the arrival
/// times' across a gap of half a second or more, a restarted clock or a missing stamp). It
/// starts at 0 with the first sample and, like the kernel's drivers' counters, is 32 bits that
/// wrap (after about 71 minutes). It is kept across disconnects, so a reader never sees it go back.
struct MotionSensorClock: Sendable {
    /// The timestamp of the last sample.
    private(set) var microseconds: UInt32 = 0
    private var lastTime: MonotonicTime?
    private var lastStamp: ControllerStamp?

    /// The timestamp of a sample stamped `stamp` (the packet's time, ms wrapping at 512) arriving at `time`.
    /// Inlined: once a packet, where the call cost as much as the arithmetic.
    @inline(__always)
    mutating func timestamp(stamp: ControllerStamp?, at time: MonotonicTime) -> UInt32 {
        if let lastTime {
            let interval = SampleInterval.between(lastStamp, stamp, arrival: time - lastTime)
            let elapsed = max(interval.nanoseconds, 0) / 1000
            microseconds &+= UInt32(truncatingIfNeeded: elapsed)
        }
        lastTime = time
        lastStamp = stamp
        return microseconds
    }
}
