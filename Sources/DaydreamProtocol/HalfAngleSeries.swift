/// `cos(θ/2)` and `sin(θ/2)/θ`, the two numbers a rotation vector of length θ becomes a
/// quaternion with, worked out from θ² alone: both are even in θ, so their Taylor series run
/// in u = θ²/4, and a packet's vector needs no square root, no division and no libm call.
///
/// Up to θ = π (every rotation has a vector that short, and the controller's are) twelve
/// terms leave a remainder under 1e-19, so the sums agree with libm's to rounding (the tests
/// check 4e-16). Longer vectors, which a packet's counts can spell but no rotation needs, are
/// the caller's to send to libm.
package enum HalfAngleSeries {
    /// The largest θ² the series holds for: π².
    package static let limit = Double.pi * Double.pi

    /// `(cos(θ/2), sin(θ/2)/θ)` for a vector whose squared length, `squaredAngle`, is in
    /// `0...limit`; at 0, `(1, 1/2)`, the limits there.
    @inline(__always)
    package static func cosineAndSineOverAngle(squaredAngle: Double) -> (cosine: Double, sineOverAngle: Double) {
        let u = squaredAngle * 0.25
        // Σ (-u)^k / (2k)!, k = 0...11.
        var cosine = -8.8967913924505741e-22
        cosine = cosine * u + 4.1103176233121648e-19
        cosine = cosine * u - 1.5619206968586225e-16
        cosine = cosine * u + 4.7794773323873853e-14
        cosine = cosine * u - 1.1470745597729725e-11
        cosine = cosine * u + 2.0876756987868100e-09
        cosine = cosine * u - 2.7557319223985888e-07
        cosine = cosine * u + 2.4801587301587302e-05
        cosine = cosine * u - 1.3888888888888889e-03
        cosine = cosine * u + 4.1666666666666664e-02
        cosine = cosine * u - 0.5
        cosine = cosine * u + 1
        // Σ (-u)^k / (2 (2k+1)!), k = 0...11: sin(θ/2) / (θ/2), halved.
        var sine = -1.9340850853153421e-23
        sine = sine * u + 9.7864705316956313e-21
        sine = sine * u - 4.1103176233121647e-18
        sine = sine * u + 1.4057286271727603e-15
        sine = sine * u - 3.8235818659099082e-13
        sine = sine * u + 8.0295219184108067e-11
        sine = sine * u - 1.2526054192720860e-08
        sine = sine * u + 1.3778659611992946e-06
        sine = sine * u - 9.9206349206349206e-05
        sine = sine * u + 4.1666666666666666e-03
        sine = sine * u - 8.3333333333333329e-02
        sine = sine * u + 0.5
        return (cosine, sine)
    }
}
