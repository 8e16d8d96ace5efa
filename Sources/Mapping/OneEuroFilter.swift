/// The 1 Euro filter (Casiez, Roussel and Vogel, CHI 2012): a first-order low-pass filter whose
/// cutoff rises with the signal's speed, so a still hand's tremor is smoothed away while a fast
/// movement passes with little lag.
///
/// Each sample at time t, Te seconds after the one before:
/// - the speed is the difference to the last filtered value over Te, itself low-passed at
///   `derivativeCutoff`;
/// - the cutoff is `minimumCutoff + beta * |speed|`;
/// - the value is low-passed at that cutoff.
///
/// A low pass at cutoff fc over Te mixes in the new sample by alpha = 1 / (1 + tau / Te), with
/// tau = 1 / (2 pi fc). The first sample passes unchanged with speed 0. Time is a parameter, not
/// read from a clock, so the filter follows the samples' own times.
public struct OneEuroFilter: Hashable, Sendable {
    /// The cutoff at rest, in Hz: lower removes more tremor and lags more when slow.
    public var minimumCutoff: Double
    /// How fast the cutoff rises with speed, in Hz per (unit per second): higher lags less when fast.
    public var beta: Double
    /// The cutoff of the speed's own low pass, in Hz.
    public var derivativeCutoff: Double

    private var last: (time: Double, value: Double, speed: Double)?

    /// A filter with its parameters and no sample yet.
    public init(minimumCutoff: Double, beta: Double, derivativeCutoff: Double = 1.0) {
        self.minimumCutoff = minimumCutoff
        self.beta = beta
        self.derivativeCutoff = derivativeCutoff
    }

    /// The filtered value of `value` sampled at `time` (seconds, any origin). A sample at or
    /// before the last one's time changes nothing and returns the last filtered value.
    @inline(__always)
    public mutating func filter(_ value: Double, at time: Double) -> Double {
        guard let last else {
            self.last = (time, value, 0)
            return value
        }
        let interval = time - last.time
        guard interval > 0 else { return last.value }
        let rawSpeed = (value - last.value) / interval
        let speed = Self.lowPass(rawSpeed, previous: last.speed, alpha: Self.alpha(cutoff: derivativeCutoff, interval: interval))
        let cutoff = minimumCutoff + beta * abs(speed)
        let filtered = Self.lowPass(value, previous: last.value, alpha: Self.alpha(cutoff: cutoff, interval: interval))
        self.last = (time, filtered, speed)
        return filtered
    }

    /// Forgets the samples: the next one passes unchanged.
    public mutating func reset() {
        last = nil
    }

    /// The weight of a new sample for a low pass at `cutoff` Hz over `interval` seconds:
    /// 1 / (1 + tau / Te) with tau = 1 / (2 pi fc), written as r / (r + 1) with r = 2 pi fc Te,
    /// one division instead of three.
    static func alpha(cutoff: Double, interval: Double) -> Double {
        let ratio = 2 * Double.pi * cutoff * interval
        return ratio / (ratio + 1)
    }

    private static func lowPass(_ value: Double, previous: Double, alpha: Double) -> Double {
        previous + alpha * (value - previous)
    }

    public static func == (lhs: OneEuroFilter, rhs: OneEuroFilter) -> Bool {
        lhs.minimumCutoff == rhs.minimumCutoff && lhs.beta == rhs.beta && lhs.derivativeCutoff == rhs.derivativeCutoff
            && lhs.last?.time == rhs.last?.time && lhs.last?.value == rhs.last?.value && lhs.last?.speed == rhs.last?.speed
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(minimumCutoff)
        hasher.combine(beta)
        hasher.combine(derivativeCutoff)
    }
}
