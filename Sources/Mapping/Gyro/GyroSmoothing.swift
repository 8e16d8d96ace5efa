/// Soft tiered smoothing of slow gyro input (JoyShockMapper's GYRO_SMOOTH_THRESHOLD and _TIME):
/// input faster than the threshold passes straight; slower than half of it, it is averaged over
/// the window; between, the share that is averaged grows as the speed falls. A steady input keeps
/// its value, since the average of equal samples is the sample, and every slow sample is spread
/// over the window after it: a slow steady turn keeps its total (the last window's worth arrives
/// after it stops).
/// Fixed storage: nothing is allocated per packet.
public struct GyroSmoothing: Hashable, Sendable {
    /// The most samples the window holds (128 at the controller's ~70 Hz is 1.8 s).
    public static let capacity = 128
    private var horizontal = [Double](repeating: 0, count: capacity)
    private var vertical = [Double](repeating: 0, count: capacity)
    private var durations = [Double](repeating: 0, count: capacity)
    private var newest = 0
    private var count = 0

    /// An empty window.
    public init() {}

    /// The input, in degrees per second, at speed `speed` over `seconds`, smoothed with
    /// `threshold` (deg/s) over `window` seconds; returns the rates to use.
    public mutating func smooth(_ rate: (x: Double, y: Double), speed: Double, seconds: Double, threshold: Double,
                                window: Double) -> (x: Double, y: Double) {
        guard threshold > 0, window > 0 else { return rate }
        let direct = min(max((speed - threshold / 2) / (threshold / 2), 0), 1)
        let slow = (x: rate.x * (1 - direct), y: rate.y * (1 - direct))
        newest = (newest + 1) % Self.capacity
        horizontal[newest] = slow.x * seconds
        vertical[newest] = slow.y * seconds
        durations[newest] = seconds
        count = min(count + 1, Self.capacity)
        // A moving average over the window: each slow sample is spread evenly over the packets of
        // the window that follows it, so a turn's total arrives whole, only later.
        var sumX = 0.0, sumY = 0.0, covered = 0.0
        var index = newest
        for _ in 0..<count {
            guard covered + durations[index] <= window + 1e-9 else { break }
            sumX += horizontal[index]
            sumY += vertical[index]
            covered += durations[index]
            index = (index + Self.capacity - 1) % Self.capacity
        }
        return (rate.x * direct + sumX / window, rate.y * direct + sumY / window)
    }

    /// Forgets the window.
    public mutating func reset() {
        count = 0
    }
}
