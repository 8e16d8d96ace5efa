import Timebase

/// Packets per second over the last second, from the arrival times of recent packets.
public struct PacketRateMeter: Sendable {
    /// The window the rate is measured over.
    public static let window = TimeSpan.seconds(1)
    private var times: [MonotonicTime] = []
    private var start = 0

    /// An empty meter.
    public init() {}

    /// Notes a packet that arrived at `time` (times must not decrease).
    public mutating func record(at time: MonotonicTime) {
        times.append(time)
        forget(before: time)
    }

    /// The packets per second over the window ending at `time`.
    public mutating func rate(at time: MonotonicTime) -> Double {
        forget(before: time)
        return Double(times.count - start) / Self.window.seconds
    }

    private mutating func forget(before time: MonotonicTime) {
        let cutoff = time.nanoseconds - Self.window.nanoseconds
        while start < times.count, times[start].nanoseconds <= cutoff { start += 1 }
        if start > 512 {
            times.removeFirst(start)
            start = 0
        }
    }
}
