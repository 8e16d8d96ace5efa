#if canImport(Glibc)
import Glibc
#endif

/// A point on the monotonic clock (`CLOCK_MONOTONIC`), in nanoseconds.
///
/// Pure code takes time as a parameter of this type, so tests can move it by hand.
/// Its units, order and text are `NanosecondCount`'s; `seconds` counts from the clock's origin.
public struct MonotonicTime: NanosecondCount {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// The current value of `CLOCK_MONOTONIC`.
    public static func now() -> MonotonicTime {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return MonotonicTime(nanoseconds: Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec))
    }

    public static func + (lhs: MonotonicTime, rhs: TimeSpan) -> MonotonicTime {
        MonotonicTime(nanoseconds: lhs.nanoseconds &+ rhs.nanoseconds)
    }

    public static func - (lhs: MonotonicTime, rhs: MonotonicTime) -> TimeSpan {
        TimeSpan(nanoseconds: lhs.nanoseconds &- rhs.nanoseconds)
    }
}

/// A length of time in nanoseconds (units, order and text from `NanosecondCount`).
public struct TimeSpan: NanosecondCount {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }
}
