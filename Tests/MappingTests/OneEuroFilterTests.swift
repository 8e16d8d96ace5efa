import Testing
@testable import Mapping

/// The 1 Euro filter against values worked out from the paper's formulas, and its two promises:
/// tremor at rest shrinks, a fast sweep lags little.
@Suite("1 Euro filter")
struct OneEuroFilterTests {
    /// The absolute pointer's defaults (`PointerSettings`).
    static let pointerDefaults = OneEuroFilter(minimumCutoff: 0.5, beta: 0.3, derivativeCutoff: 1.0)

    /// A step from 0 to 1 after 10 ms. With beta 0 the cutoff stays 1 Hz: tau = 1 / (2 pi),
    /// alpha = 1 / (1 + tau / 0.01) = 0.0591174.
    @Test func stepWithoutBetaIsAPlainLowPass() {
        var filter = OneEuroFilter(minimumCutoff: 1, beta: 0)
        #expect(filter.filter(0, at: 0) == 0, "the first sample passes unchanged")
        #expect(abs(filter.filter(1, at: 0.01) - 0.0591174) < 1e-6)
    }

    /// With beta 0.1 the step's speed (100 per s, low-passed at 1 Hz to 5.91174) raises the cutoff
    /// to 1.591174 Hz: alpha 0.0908896; the next sample, 10 ms on, gives 0.1965789.
    @Test func stepWithBetaRaisesTheCutoffBySpeed() {
        var filter = OneEuroFilter(minimumCutoff: 1, beta: 0.1)
        _ = filter.filter(0, at: 0)
        #expect(abs(filter.filter(1, at: 0.01) - 0.0908896) < 1e-6)
        #expect(abs(filter.filter(1, at: 0.02) - 0.1965789) < 1e-6)
    }

    @Test func aSampleThatDoesNotAdvanceTimeChangesNothing() {
        var filter = OneEuroFilter(minimumCutoff: 1, beta: 0.3)
        _ = filter.filter(0, at: 1)
        let moved = filter.filter(1, at: 1.01)
        #expect(filter.filter(50, at: 1.01) == moved)
        #expect(filter.filter(50, at: 0.5) == moved)
        filter.reset()
        #expect(filter.filter(50, at: 0.5) == 50, "after a reset the next sample passes unchanged")
    }

    /// Noise of +-0.1 degree (uniform, a still hand's tremor) at the controller's 16 ms: the
    /// pointer's defaults (0.5 Hz, beta 0.3) cut its standard deviation more than threefold
    /// (3.48 measured; a 1 Hz cutoff gets 3.14, beta 0.5 3.27).
    @Test func jitterAtRestShrinksMoreThanThreefold() {
        var filter = Self.pointerDefaults
        var random = SplitMix(seed: 12345)
        var raw: [Double] = []
        var smoothed: [Double] = []
        for index in 0..<300 {
            let value = (random.unit() - 0.5) * 0.2
            let out = filter.filter(value, at: Double(index) * 0.016)
            // The first second settles the filter.
            if index >= 60 {
                raw.append(value)
                smoothed.append(out)
            }
        }
        let factor = Self.standardDeviation(raw) / Self.standardDeviation(smoothed)
        #expect(factor > 3.3, "tremor shrank by \(factor)")
    }

    /// A sweep at 100 degrees per second (a quick flick across a 40-degree screen in 0.4 s):
    /// with the defaults the filtered value is never more than 1.7 degrees behind (1.57 at the
    /// start, while the speed estimate rises) and under 0.5 after a second (0.42); without beta
    /// the same low pass trails by over 10.
    @Test func fastSweepLagsByABoundedAmount() {
        var filter = Self.pointerDefaults
        var plain = OneEuroFilter(minimumCutoff: Self.pointerDefaults.minimumCutoff, beta: 0)
        var worst = 0.0
        var last = 0.0
        var plainLast = 0.0
        for index in 0..<63 {
            let time = Double(index) * 0.016
            let value = 100 * time
            last = value - filter.filter(value, at: time)
            plainLast = value - plain.filter(value, at: time)
            worst = max(worst, last)
        }
        #expect(worst < 1.7, "worst lag \(worst) degrees")
        #expect(last < 0.5, "lag after a second \(last) degrees")
        #expect(plainLast > 10, "a plain 1 Hz low pass trails by \(plainLast) degrees")
    }

    private static func standardDeviation(_ values: [Double]) -> Double {
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)
        return variance.squareRoot()
    }
}

/// A small seeded generator (SplitMix64), so the noise is the same on every run.
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// A value in [0, 1).
    mutating func unit() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }
}
