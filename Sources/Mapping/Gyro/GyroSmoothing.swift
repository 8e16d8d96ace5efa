/// Soft tiered smoothing of slow gyro input (JoyShockMapper's GYRO_SMOOTH_THRESHOLD and _TIME):
/// input faster than the threshold passes straight; slower than half of it, it is averaged over
/// the window; between, the share that is averaged grows as the speed falls.
///
/// JSM averages the last `window / tick` samples, which assumes a fixed packet rate. Packets here
/// come at the controller's rate, with jitter, so the average is taken over time instead: each
/// packet's smoothed share (in degrees) is paid out evenly over the `window` seconds that start
/// where the packet's own interval starts, and each packet receives what falls within its
/// interval. A sample partly inside a packet's interval counts by the part inside. So a steady
/// turn comes out at its own rate once the window has filled (at any packet rate), and every
/// degree of a turn arrives, whatever the intervals, within `window` after it stops.
/// Fixed storage: nothing is allocated per packet.
public struct GyroSmoothing: Hashable, Sendable {
    /// The most samples the window holds (128 at the controller's ~70 Hz is 1.8 s). When it is
    /// full, the oldest sample's unpaid rest is paid at once rather than lost.
    public static let capacity = 128
    private var horizontal = [Double](repeating: 0, count: capacity)
    private var vertical = [Double](repeating: 0, count: capacity)
    /// When each sample's pay-out starts, in seconds from the start of the coming packet's interval
    /// (so at or before 0).
    private var starts = [Double](repeating: 0, count: capacity)
    private var oldest = 0
    private var count = 0

    /// An empty window.
    public init() {}

    /// The input, in degrees per second, at speed `speed` over `seconds`, smoothed with
    /// `threshold` (deg/s) over `window` seconds; returns the rates to use.
    public mutating func smooth(_ rate: (x: Double, y: Double), speed: Double, seconds: Double, threshold: Double,
                                window: Double) -> (x: Double, y: Double) {
        guard threshold > 0, window > 0, seconds > 0, seconds.isFinite else { return rate }
        let direct = min(max((speed - threshold / 2) / (threshold / 2), 0), 1)
        var paid = (x: 0.0, y: 0.0)
        if direct < 1 {
            if count == Self.capacity { payRestOfOldest(window: window, into: &paid) }
            let newest = (oldest + count) % Self.capacity
            horizontal[newest] = rate.x * (1 - direct) * seconds
            vertical[newest] = rate.y * (1 - direct) * seconds
            starts[newest] = 0
            count += 1
        }
        // This packet's interval is 0...seconds. Each sample pays the share of its window that
        // falls within it, and its start moves back by the interval for the next packet.
        var index = oldest
        for _ in 0..<count {
            let overlap = min(seconds, starts[index] + window) - max(0, starts[index])
            if overlap > 0 {
                paid.x += horizontal[index] * overlap / window
                paid.y += vertical[index] * overlap / window
            }
            starts[index] -= seconds
            index = (index + 1) % Self.capacity
        }
        // Samples whose window has passed are done.
        while count > 0, starts[oldest] + window <= 0 {
            oldest = (oldest + 1) % Self.capacity
            count -= 1
        }
        return (rate.x * direct + paid.x / seconds, rate.y * direct + paid.y / seconds)
    }

    /// Pays at once what the oldest sample's window has not yet paid, and drops it.
    private mutating func payRestOfOldest(window: Double, into paid: inout (x: Double, y: Double)) {
        let unpaid = min(max((starts[oldest] + window) / window, 0), 1)
        paid.x += horizontal[oldest] * unpaid
        paid.y += vertical[oldest] * unpaid
        oldest = (oldest + 1) % Self.capacity
        count -= 1
    }

    /// Forgets the window.
    public mutating func reset() {
        count = 0
    }
}
