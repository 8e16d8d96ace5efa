import Foundation
import Testing
import DaydreamProtocol

/// The series that turn a rotation vector into a quaternion, against libm's sine and cosine.
@Suite("A rotation vector's half-angle without libm")
struct HalfAngleSeriesTests {
    static let tolerance = 4e-16

    @Test func agreesWithLibmUpToHalfATurn() {
        var worst = (cosine: 0.0, sineOverAngle: 0.0)
        let steps = 200_000
        for step in 1...steps {
            let squaredAngle = HalfAngleSeries.limit * Double(step) / Double(steps)
            let angle = squaredAngle.squareRoot()
            let series = HalfAngleSeries.cosineAndSineOverAngle(squaredAngle: squaredAngle)
            worst.cosine = max(worst.cosine, abs(series.cosine - cos(angle / 2)))
            worst.sineOverAngle = max(worst.sineOverAngle, abs(series.sineOverAngle - sin(angle / 2) / angle))
        }
        #expect(worst.cosine <= Self.tolerance, "cos(θ/2) off libm by \(worst.cosine)")
        #expect(worst.sineOverAngle <= Self.tolerance, "sin(θ/2)/θ off libm by \(worst.sineOverAngle)")
    }

    @Test func theLimitAtZeroIsExact() {
        let series = HalfAngleSeries.cosineAndSineOverAngle(squaredAngle: 0)
        #expect(series.cosine == 1 && series.sineOverAngle == 0.5)
        #expect(Quaternion(rotationVector: .zero) == .identity)
    }

    /// Every orientation a packet can report, on each axis alone: the series up to π, libm
    /// beyond, and the quaternion always a unit one.
    @Test func everyPacketCountOnAnAxisMakesTheSameQuaternionAsLibm() {
        for count in Int16(-4096)...4095 {
            let angle = Double(count) * Scale.orientation
            let q = Quaternion(rotationVector: Vector3(x: 0, y: angle, z: 0))
            #expect(abs(q.w - cos(angle / 2)) <= Self.tolerance, "w at \(count)")
            #expect(abs(q.y - sin(angle / 2)) <= Self.tolerance, "y at \(count)")
            #expect(abs(q.w * q.w + q.y * q.y - 1) <= 4 * Double.ulpOfOne, "norm at \(count)")
        }
    }

    /// A vector no rotation needs (longer than π), and one that is not a number.
    @Test func longVectorsGoToLibmAndNaNMakesTheIdentity() {
        let long = Vector3(x: 4, y: 3, z: 0)  // θ = 5
        let q = Quaternion(rotationVector: long)
        #expect(q.w == cos(2.5) && q.x == 4 * (sin(2.5) / 5) && q.y == 3 * (sin(2.5) / 5) && q.z == 0)
        #expect(Quaternion(rotationVector: Vector3(x: .nan, y: 0, z: 0)) == .identity)
    }
}
