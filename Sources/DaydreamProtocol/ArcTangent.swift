#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `atan2(y, x)` for the orientation's yaw and roll, a packet at a time, without libm's call
/// (about 140 instructions; this is about 50).
///
/// The ratio of the shorter leg to the longer is in 0...1; its angle is π/8 or π/4 plus the
/// angle of a ratio within tan(π/16) of 0, whose Taylor series has converged to 3e-19 by its
/// twelfth term. The octant then places the angle. It agrees with libm to 4e-16 (the tests
/// sweep every octant); zeros, infinities and NaN take libm's own answer.
@usableFromInline
package enum ArcTangent {
    /// The angle of the point (x, y) from the positive x axis, in -π...π, as `atan2(y, x)`.
    @inlinable @inline(__always)
    package static func angle(y: Double, x: Double) -> Double {
        let (absoluteX, absoluteY) = (abs(x), abs(y))
        let steep = absoluteY > absoluteX
        let (shorter, longer) = steep ? (absoluteX, absoluteY) : (absoluteY, absoluteX)
        guard longer > 0, (absoluteX + absoluteY).isFinite else { return atan2(y, x) }
        var angle = angleOfRatio(shorter / longer)
        if steep { angle = Double.pi / 2 - angle }
        if x.sign == .minus { angle = Double.pi - angle }
        return y.sign == .minus ? -angle : angle
    }

    /// `atan(ratio)` for a ratio in 0...1.
    @inlinable @inline(__always)
    package static func angleOfRatio(_ ratio: Double) -> Double {
        let tangentOfEighth = 0.41421356237309503  // tan(π/8), √2 - 1
        let reduced: Double
        let base: Double
        if ratio <= 0.19891236737965801 {  // tan(π/16)
            (reduced, base) = (ratio, 0)
        } else if ratio <= 0.66817863791929888 {  // tan(3π/16)
            (reduced, base) = ((ratio - tangentOfEighth) / (1 + ratio * tangentOfEighth), Double.pi / 8)
        } else {
            (reduced, base) = ((ratio - 1) / (ratio + 1), Double.pi / 4)
        }
        // atan(t) = t Σ (-t²)^k / (2k+1), k = 0...11, for |t| <= tan(π/16).
        let t2 = reduced * reduced
        var sum = -4.3478260869565216e-02
        sum = sum * t2 + 4.7619047619047616e-02
        sum = sum * t2 - 5.2631578947368418e-02
        sum = sum * t2 + 5.8823529411764705e-02
        sum = sum * t2 - 6.6666666666666666e-02
        sum = sum * t2 + 7.6923076923076927e-02
        sum = sum * t2 - 9.0909090909090912e-02
        sum = sum * t2 + 1.1111111111111110e-01
        sum = sum * t2 - 1.4285714285714285e-01
        sum = sum * t2 + 2.0000000000000001e-01
        sum = sum * t2 - 3.3333333333333331e-01
        sum = sum * t2 + 1
        return base + reduced * sum
    }
}
