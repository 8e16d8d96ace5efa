/// A count of nanoseconds: what a point on the clock (`MonotonicTime`) and a length of time
/// (`TimeSpan`) share, written once: their units, their order and their text.
public protocol NanosecondCount: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The count.
    var nanoseconds: Int64 { get set }

    /// The value this many nanoseconds make.
    init(nanoseconds: Int64)
}

extension NanosecondCount {
    /// Zero nanoseconds.
    @inlinable public static var zero: Self { Self(nanoseconds: 0) }

    /// `value` seconds, to the nearest nanosecond.
    @inlinable public static func seconds(_ value: Double) -> Self {
        Self(nanoseconds: Int64((value * 1e9).rounded()))
    }

    /// `value` milliseconds.
    @inlinable public static func milliseconds(_ value: Int64) -> Self {
        Self(nanoseconds: value * 1_000_000)
    }

    /// The count in seconds.
    @inlinable public var seconds: Double { Double(nanoseconds) / 1e9 }

    @inlinable public static func < (lhs: Self, rhs: Self) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    /// The count in seconds, e.g. `1.5s`.
    public var description: String { "\(seconds)s" }
}
