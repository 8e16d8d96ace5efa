import Timebase

/// How long to wait before trying the system bus again.
///
/// Each failed try doubles the wait, from `first` up to `maximum`. A connection that was lost
/// starts the waits over only when it had lasted `stableAfter`: a bus that accepts a connection and
/// drops it at once (dbus-daemon does so for a user it cannot resolve for its policy) is backed off
/// like one that refuses it, instead of being tried again every `first` for ever.
struct BusRetryBackoff {
    let first: TimeSpan
    let maximum: TimeSpan
    let stableAfter: TimeSpan
    private(set) var delay: TimeSpan

    init(first: TimeSpan, maximum: TimeSpan, stableAfter: TimeSpan) {
        self.first = first
        self.maximum = maximum
        self.stableAfter = stableAfter
        delay = first
    }

    /// The wait after a connection that lasted `lasted` was lost. True in `early` when it was
    /// lost before it counted as stable.
    mutating func afterLoss(lasted: TimeSpan) -> (wait: TimeSpan, early: Bool) {
        if lasted >= stableAfter {
            delay = first
            return (delay, false)
        }
        return (afterFailure(), true)
    }

    /// The wait after a try that failed, or a connection lost early: the last wait doubled.
    mutating func afterFailure() -> TimeSpan {
        delay = TimeSpan(nanoseconds: min(delay.nanoseconds * 2, maximum.nanoseconds))
        return delay
    }
}
