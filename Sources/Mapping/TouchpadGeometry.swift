#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DaydreamProtocol

/// The round touchpad in polar terms: centre (0.5, 0.5), radius 0.5, y down.
struct PadPosition: Sendable {
    /// -1 (left) ... 1 (right) at the rim.
    var x: Double
    /// -1 (top) ... 1 (bottom) at the rim.
    var y: Double

    init(_ point: TouchPoint) {
        x = (point.x - 0.5) * 2
        y = (point.y - 0.5) * 2
    }

    /// Distance from the centre as a fraction of the radius (may exceed 1 in the square's corners).
    var radius: Double { (x * x + y * y).squareRoot() }

    /// Angle from the right, clockwise (y is down), in -pi...pi.
    var angle: Double { atan2(y, x) }
}

/// The angle difference `to - from` wrapped to -pi...pi.
func wrappedAngle(from: Double, to: Double) -> Double {
    var delta = to - from
    while delta > Double.pi { delta -= 2 * Double.pi }
    while delta < -Double.pi { delta += 2 * Double.pi }
    return delta
}

/// -1...1 to an axis of -32768...32767, rounding to nearest. Inlined: two calls a packet for a
/// stick, where the call cost as much as the arithmetic. Clamped first, so the rounding needs
/// no range checks (`roundedInt32`).
@inline(__always)
func stickValue(_ value: Double) -> Int32 {
    let clamped = min(1, max(-1, value))
    return roundedInt32(clamped >= 0 ? clamped * 32767 : clamped * 32768)
}

/// Splits a value (plus the remainder carried so far) into whole counts now, rounded to the
/// nearest, and a remainder of at most half a count for later.
@inline(__always)
func takeWholeCounts(_ value: Double, remainder: inout Double) -> Int32 {
    let total = value + remainder
    let whole = roundedToNearest(total)
    remainder = total - whole
    return Int32(clamping: Int64(max(-2_000_000_000, min(2_000_000_000, whole))))
}
