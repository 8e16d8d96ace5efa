import Timebase

/// Reconnect delays: `initial`, doubling on each failure, capped at `maximum`,
/// each drawn at random between half and all of that (jitter, so that retries
/// do not fall into step with bluetoothd's own timers or with other controllers).
/// `reset()` goes back to `initial`; the link calls it only once a stream has
/// held for a while, so a link that comes up and drops at once keeps slowing down.
struct Backoff {
    let initial: TimeSpan
    let maximum: TimeSpan
    private(set) var failures = 0

    init(initial: TimeSpan, maximum: TimeSpan) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The delay before the next attempt, without jitter, for `failures` failures so far.
    func ceiling(afterFailures failures: Int) -> TimeSpan {
        let shift = min(failures, 30)
        let delay = initial.nanoseconds.multipliedReportingOverflow(by: Int64(1) << shift)
        return delay.overflow ? maximum : min(TimeSpan(nanoseconds: delay.partialValue), maximum)
    }

    /// The delay before the next attempt; counts one more failure.
    mutating func next() -> TimeSpan {
        var generator = SystemRandomNumberGenerator()
        return next(using: &generator)
    }

    /// The delay before the next attempt, its jitter drawn from `generator`; counts one more failure.
    mutating func next<Generator: RandomNumberGenerator>(using generator: inout Generator) -> TimeSpan {
        let ceiling = ceiling(afterFailures: failures)
        failures += 1
        let half = ceiling.nanoseconds / 2
        return TimeSpan(nanoseconds: half + Int64.random(in: 0...(ceiling.nanoseconds - half), using: &generator))
    }

    mutating func reset() { failures = 0 }
}
