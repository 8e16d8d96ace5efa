import DaydreamProtocol
import Foundation
import Testing

/// The orientation worked out from an IMU for families whose packets carry none: the gyro's turn
/// integrated at each sample's step, pitch and roll held by gravity, gravity alone without a gyro.
@Suite struct OrientationEstimatorTests {
    static let gravity = UnitConversion.standardGravity
    static let up = Vector3(x: 0, y: gravity, z: 0)

    static func degrees(_ radians: Double) -> Double { radians * 180 / Double.pi }
    static func radians(_ degrees: Double) -> Double { degrees * Double.pi / 180 }

    @Test func aTurnAboutTheUpAxisIsTheGyrosIntegral() {
        var estimator = OrientationEstimator()
        estimator.update(rate: .zero, acceleration: Self.up, step: 0)
        // 200 samples 5 ms apart at 90 deg/s to the right (negative about y): 90 degrees.
        let rate = Vector3(x: 0, y: -Self.radians(90), z: 0)
        for _ in 0..<200 { estimator.update(rate: rate, acceleration: Self.up, step: 0.005) }
        #expect(abs(Self.degrees(estimator.orientation.yaw) + 90) < 0.01)
        #expect(abs(Self.degrees(estimator.orientation.pitch)) < 0.01)
        #expect(abs(Self.degrees(estimator.orientation.roll)) < 0.01)
    }

    @Test func gravityHoldsPitchAgainstAGyroBias() {
        // Lying still for a minute with a bias of 1 deg/s about x: integrated alone it would tip
        // the estimate 60 degrees; gravity holds it to about bias / gain (1 degree).
        var estimator = OrientationEstimator()
        let bias = Vector3(x: Self.radians(1), y: 0, z: 0)
        for _ in 0..<12_000 { estimator.update(rate: bias, acceleration: Self.up, step: 0.005) }
        let pitch = Self.degrees(estimator.orientation.pitch)
        #expect(abs(pitch) < 1.5, "pitch \(pitch)")
        #expect(abs(pitch) > 0.5, "a standing error of about bias / gain: \(pitch)")
    }

    @Test func aSwingsAccelerationIsNotTakenForGravity() {
        // Twice gravity while swinging: only the gyro counts, which says nothing turned.
        var estimator = OrientationEstimator()
        estimator.update(rate: .zero, acceleration: Self.up, step: 0)
        let swing = Vector3(x: 2 * Self.gravity, y: Self.gravity, z: 0)
        for _ in 0..<200 { estimator.update(rate: .zero, acceleration: swing, step: 0.005) }
        #expect(estimator.orientation == .identity)
    }

    @Test func aGapInTheStreamIntegratesNothing() {
        var estimator = OrientationEstimator()
        estimator.update(rate: .zero, acceleration: Self.up, step: 0)
        estimator.update(rate: Vector3(x: 0, y: 3, z: 0), acceleration: Self.up, step: 2)
        #expect(estimator.orientation == .identity)
    }

    @Test func withoutAGyroTheTipIsGravitysAlone() {
        var estimator = OrientationEstimator()
        estimator.update(acceleration: Self.up)
        // Tipped 30 degrees about x: the reference's up reads (0, cos 30, -sin 30) on the body.
        let tipped = Vector3(x: 0, y: Self.gravity * cos(Self.radians(30)), z: -Self.gravity * sin(Self.radians(30)))
        estimator.update(acceleration: tipped)
        #expect(abs(Self.degrees(estimator.orientation.pitch) - 30) < 0.01)
        #expect(abs(Self.degrees(estimator.orientation.yaw)) < 0.01)
    }

    @Test func theCountsDescribeTheEstimateToWithinACount() {
        var estimator = OrientationEstimator()
        estimator.update(rate: .zero, acceleration: Self.up, step: 0)
        let rate = Vector3(x: Self.radians(40), y: -Self.radians(70), z: Self.radians(10))
        for _ in 0..<100 { estimator.update(rate: rate, acceleration: Self.up, step: 0.005) }
        let packet = DaydreamPacket(orientation: estimator.rotationVectorCounts)
        let estimate = estimator.orientation.rotationVector
        let counted = packet.rotationVector
        for (a, b) in [(estimate.x, counted.x), (estimate.y, counted.y), (estimate.z, counted.z)] {
            #expect(abs(a - b) <= Scale.orientation / 2 + 1e-12)
        }
        #expect(abs(Quaternion(rotationVector: estimate).yaw - estimator.orientation.yaw) < 1e-9)
    }
}
