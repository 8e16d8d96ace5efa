import DaydreamProtocol
import Testing

/// The one home for unit conversions: the factors are the standard ones, and each conversion
/// undoes the other.
@Suite("Unit conversion")
struct UnitConversionTests {
    @Test func standardGravityIsTheConventionalValue() {
        #expect(UnitConversion.standardGravity == 9.80665)
        #expect(UnitConversion.gravities(metresPerSecondSquared: 9.80665) == 1)
        #expect(UnitConversion.metresPerSecondSquared(gravities: 2) == 19.6133)
    }

    @Test func rightAnglesConvertBothWays() {
        #expect(UnitConversion.degrees(radians: .pi) == 180)
        #expect(UnitConversion.degrees(radians: -.pi / 2) == -90)
        #expect(UnitConversion.radians(degrees: 180) == .pi)
        #expect(UnitConversion.radians(degrees: 90) == .pi / 2)
        #expect(UnitConversion.degrees(radians: 0) == 0)
    }

    @Test func conversionsUndoEachOther() {
        for degrees in stride(from: -720.0, through: 720.0, by: 0.25) {
            let back = UnitConversion.degrees(radians: UnitConversion.radians(degrees: degrees))
            #expect(abs(back - degrees) <= abs(degrees) * 1e-15, "\(degrees)")
        }
        for g in stride(from: -16.0, through: 16.0, by: 0.125) {
            let back = UnitConversion.gravities(metresPerSecondSquared: UnitConversion.metresPerSecondSquared(gravities: g))
            #expect(abs(back - g) <= abs(g) * 1e-15, "\(g)")
        }
    }

    @Test func vectorsConvertEachAxis() {
        let degrees = UnitConversion.degrees(radians: Vector3(x: .pi, y: -.pi / 4, z: 0))
        #expect(degrees == Vector3(x: 180, y: -45, z: 0))
        let g = UnitConversion.gravities(metresPerSecondSquared: Vector3(x: 0, y: -9.80665, z: 19.6133))
        #expect(g == Vector3(x: 0, y: -1, z: 2))
    }

    /// The packet's scales are built on them: 8 g per 4095 counts of acceleration, 2048 deg/s
    /// per 4095 counts of gyro.
    @Test func packetScalesUseTheStandardFactors() {
        #expect(abs(Scale.acceleration * 4095 / 8 - 9.80665) < 1e-12)
        #expect(abs(UnitConversion.degrees(radians: Scale.gyro) * 4095 - 2048) < 1e-9)
    }
}
