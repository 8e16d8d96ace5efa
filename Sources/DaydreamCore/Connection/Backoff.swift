import Timebase

/// Reconnect delays: `initial`, doubling on each failure, capped at `maximum`;
/// back to `initial` after a success.
struct Backoff {
    let initial: TimeSpan
    let maximum: TimeSpan
    private(set) var failures = 0

    init(initial: TimeSpan, maximum: TimeSpan) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The delay before the next attempt; counts one more failure.
    mutating func next() -> TimeSpan {
        let shift = min(failures, 30)
        failures += 1
        let delay = initial.nanoseconds.multipliedReportingOverflow(by: Int64(1) << shift)
        return delay.overflow ? maximum : min(TimeSpan(nanoseconds: delay.partialValue), maximum)
    }

    mutating func reset() { failures = 0 }
}
