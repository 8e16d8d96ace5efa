#if canImport(Glibc)
import Glibc
#endif

/// A point on the monotonic clock (`CLOCK_MONOTONIC`), in nanoseconds.
///
/// Pure code takes time as a parameter of this type, so tests can move it by hand.
public struct MonotonicTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public static let zero = MonotonicTime(nanoseconds: 0)

    public static func seconds(_ value: Double) -> MonotonicTime {
        MonotonicTime(nanoseconds: Int64((value * 1e9).rounded()))
    }

    public static func milliseconds(_ value: Int64) -> MonotonicTime {
        MonotonicTime(nanoseconds: value * 1_000_000)
    }

    /// Seconds since the clock's origin.
    public var seconds: Double { Double(nanoseconds) / 1e9 }

    /// The current value of `CLOCK_MONOTONIC`.
    public static func now() -> MonotonicTime {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return MonotonicTime(nanoseconds: Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec))
    }

    public static func < (lhs: MonotonicTime, rhs: MonotonicTime) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    public static func + (lhs: MonotonicTime, rhs: TimeSpan) -> MonotonicTime {
        MonotonicTime(nanoseconds: lhs.nanoseconds &+ rhs.nanoseconds)
    }

    public static func - (lhs: MonotonicTime, rhs: MonotonicTime) -> TimeSpan {
        TimeSpan(nanoseconds: lhs.nanoseconds &- rhs.nanoseconds)
    }

    public var description: String { "\(seconds)s" }
}

/// A length of time in nanoseconds.
public struct TimeSpan: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public static let zero = TimeSpan(nanoseconds: 0)

    public static func seconds(_ value: Double) -> TimeSpan {
        TimeSpan(nanoseconds: Int64((value * 1e9).rounded()))
    }

    public static func milliseconds(_ value: Int64) -> TimeSpan {
        TimeSpan(nanoseconds: value * 1_000_000)
    }

    public var seconds: Double { Double(nanoseconds) / 1e9 }

    public static func < (lhs: TimeSpan, rhs: TimeSpan) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    public var description: String { "\(seconds)s" }
}
