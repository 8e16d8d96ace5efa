/// `value.rounded()` (to nearest, halves away from zero) without a call into libm: on x86-64
/// without SSE4.1, Swift's `rounded()` is a call to `round`, and the packet path rounds a few
/// times a packet. Below 2^52 the conversion to `Int64` truncates exactly and the fraction
/// left is exact; from 2^52 on (and for infinities and NaN) `rounded()` itself is used.
/// Only the sign of a zero result may differ from `rounded()` (+0 for -0.5 < value <= -0).
@inline(__always)
func roundedToNearest(_ value: Double) -> Double {
    guard abs(value) < 0x1p52 else { return value.rounded() }
    let truncated = Double(Int64(value))
    let fraction = value - truncated
    if fraction >= 0.5 { return truncated + 1 }
    if fraction <= -0.5 { return truncated - 1 }
    return truncated
}

/// `Int32(value.rounded())` for a value already within `Int32`'s range (a clamped axis value),
/// in a few instructions: the conversion truncates exactly, the fraction left is exact, and a
/// half or more away from zero rounds away. A value outside the range traps, as `Int32(_:)` does.
@inline(__always)
func roundedInt32(_ value: Double) -> Int32 {
    let truncated = Int32(value)
    let fraction = value - Double(truncated)
    if fraction >= 0.5 { return truncated + 1 }
    if fraction <= -0.5 { return truncated - 1 }
    return truncated
}
