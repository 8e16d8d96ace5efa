@testable import Mapping
import EventVocabulary
import Testing

/// The packet path's rounding agrees with `rounded()` (ties away from zero) everywhere.
@Suite("Rounding to nearest")
struct RoundingTests {
    /// Every quarter from -1000 to 1000: the halves, both sides of them, and the whole numbers.
    @Test func quartersRoundLikeTheStandardLibrary() {
        for quarter in -4000...4000 {
            let value = Double(quarter) / 4
            #expect(roundedToNearest(value) == value.rounded(), "\(value)")
        }
    }

    /// The doubles next to the halves, where a sloppy rounding tips the wrong way.
    @Test func neighboursOfHalvesRoundLikeTheStandardLibrary() {
        for whole in -50...50 {
            let half = Double(whole) + 0.5
            for value in [half.nextDown, half, half.nextUp, -half.nextDown, -half, -half.nextUp] {
                #expect(roundedToNearest(value) == value.rounded(), "\(value)")
            }
        }
        #expect(roundedToNearest(0.49999999999999994) == 0)
        #expect(roundedToNearest(-0.49999999999999994) == 0)
    }

    /// Spread over the exponents (a fixed xorshift sequence), the conversion's limits, and the
    /// values that are not numbers at all.
    @Test func theWholeRangeRoundsLikeTheStandardLibrary() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<20_000 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            let value = Double(bitPattern: state)
            guard !value.isNaN else { continue }
            #expect(roundedToNearest(value) == value.rounded(), "\(value)")
        }
        let edges: [Double] = [
            0x1p52, -0x1p52, 0x1p52.nextDown, -0x1p52.nextDown, 0x1p52 - 0.5, -(0x1p52 - 0.5),
            0x1p63, -0x1p63, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
            .infinity, -.infinity, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 0, -0.0,
        ]
        for value in edges {
            #expect(roundedToNearest(value) == value.rounded(), "\(value)")
        }
        #expect(roundedToNearest(.nan).isNaN)
    }

    /// The axis values' rounding: the halves and their neighbours, through the motion
    /// sensor's whole range (±2^21), give what `Int32(rounded())` gives.
    @Test func axisValuesRoundLikeTheStandardLibrary() {
        for whole in stride(from: -2_097_152, through: 2_097_152, by: 4093) {
            let half = Double(whole) + 0.5
            for value in [half.nextDown, half, half.nextUp, Double(whole), -half.nextDown, -half, -half.nextUp] {
                #expect(roundedInt32(value) == Int32(value.rounded()), "\(value)")
            }
        }
        #expect(roundedInt32(0.49999999999999994) == 0)
        #expect(roundedInt32(-0.49999999999999994) == 0)
        #expect(roundedInt32(32766.5) == 32767)
        #expect(roundedInt32(-65535.5) == -65536)
    }

    /// The motion sensor clamps before rounding; beyond the range, and for infinities, the
    /// result is what rounding first and clamping after gives.
    @Test func motionSensorValuesClampLikeRoundingFirst() {
        let fullScale = 8 * 9.80665
        for metres in [fullScale - 0.01, fullScale, fullScale + 0.01, 1e9, -1e9, .infinity, -.infinity, (-fullScale).nextDown] {
            let units = metres / 9.80665 * Double(MotionSensors.unitsPerG)
            let expected = units.isFinite ? Int32(min(max(units.rounded(), -65536), 65536)) : 0
            #expect(MotionSensors.accelerationValue(metres) == expected, "\(metres)")
        }
    }
}
