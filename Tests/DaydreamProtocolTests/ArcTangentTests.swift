import Foundation
import Testing
import DaydreamProtocol

/// `ArcTangent.angle` against libm's `atan2`, which it stands in for on the packet path.
@Suite("The arctangent without libm")
struct ArcTangentTests {
    /// The largest difference to libm allowed: two units in the last place of π.
    static let tolerance = 2 * Double.pi.ulp

    @Test func agreesWithLibmAllRoundTheCircle() {
        var worst = 0.0
        for radius in [1e-300, 1e-9, 0.5, 1, 3, 1e9, 1e300] {
            for step in 0..<100_000 {
                let direction = (Double(step) + 0.37) / 100_000 * 2 * Double.pi - Double.pi
                let (y, x) = (radius * sin(direction), radius * cos(direction))
                worst = max(worst, abs(ArcTangent.angle(y: y, x: x) - atan2(y, x)))
            }
        }
        #expect(worst <= Self.tolerance, "off libm by \(worst)")
    }

    /// Each change of formula (tan(π/16), tan(3π/16), the diagonal) and a hair either side.
    @Test func agreesWithLibmAtEveryBreakpoint() {
        let ratios = [tan(Double.pi / 16), tan(3 * Double.pi / 16), 0.41421356237309503, 1, 0, 1e-20]
        for ratio in ratios {
            for nudge in -3...3 {
                var value = ratio
                for _ in 0..<abs(nudge) { value = nudge < 0 ? value.nextDown : value.nextUp }
                guard value >= 0 else { continue }
                for (y, x) in [(value, 1.0), (1.0, value), (-value, 1.0), (value, -1.0), (-1.0, -value)] {
                    let difference = abs(ArcTangent.angle(y: y, x: x) - atan2(y, x))
                    #expect(difference <= Self.tolerance, "atan2(\(y), \(x)) off by \(difference)")
                }
            }
        }
    }

    @Test func smallAnglesKeepTheirRelativePrecision() {
        for y in [1e-300, Double.leastNonzeroMagnitude, 1e-12, -3e-8] {
            let angle = ArcTangent.angle(y: y, x: 1)
            #expect(abs(angle - atan2(y, 1)) <= atan2(y, 1).magnitude.ulp, "atan2(\(y), 1) = \(angle)")
        }
    }

    /// Zeros, infinities and NaN are libm's to answer: the signs of the zeros pick ±0 or ±π.
    @Test func specialValuesAreLibmsOwn() {
        let specials = [0.0, -0.0, Double.infinity, -Double.infinity, Double.nan, 1, -1, Double.greatestFiniteMagnitude]
        for y in specials {
            for x in specials {
                let mine = ArcTangent.angle(y: y, x: x)
                let libm = atan2(y, x)
                #expect(mine.bitPattern == libm.bitPattern || (mine.isNaN && libm.isNaN)
                    || abs(mine - libm) <= Self.tolerance, "atan2(\(y), \(x)): \(mine), libm \(libm)")
            }
        }
    }
}
