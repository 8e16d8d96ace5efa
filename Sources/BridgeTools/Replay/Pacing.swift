#if canImport(Glibc)
import Glibc
#endif
import Timebase

/// Waits for a replay's virtual times on the real clock, and notices SIGINT and SIGTERM meanwhile.
///
/// SIGINT and SIGTERM are blocked and waited for with `sigtimedwait(2)`: a wait ends at its time
/// or at once when one arrives, and the replay can then release everything and stop cleanly.
public final class RecordedPacing {
    private let start: MonotonicTime
    private var signals = sigset_t()
    /// The signal that interrupted the replay, if one did.
    public private(set) var interruption: Int32?

    /// Starts the clock now and blocks SIGINT and SIGTERM for this thread.
    public init() {
        start = MonotonicTime.now()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }

    /// True once SIGINT or SIGTERM arrived.
    public var interrupted: Bool { interruption != nil }

    /// Sleeps until `virtual` time after the start (at once when it has passed); returns early,
    /// with `interrupted` set, when SIGINT or SIGTERM arrives.
    public func wait(until virtual: MonotonicTime) {
        let deadline = start + TimeSpan(nanoseconds: virtual.nanoseconds)
        while interruption == nil {
            let left = deadline - MonotonicTime.now()
            var timeout = timespec(tv_sec: Int(max(left.nanoseconds, 0) / 1_000_000_000),
                                   tv_nsec: Int(max(left.nanoseconds, 0) % 1_000_000_000))
            let received = sigtimedwait(&signals, nil, &timeout)
            if received > 0 {
                interruption = received
                return
            }
            if received < 0, errno == EAGAIN { return }
        }
    }

    /// Takes a pending SIGINT or SIGTERM without waiting (for `--fast`).
    public func poll() {
        guard interruption == nil else { return }
        var zero = timespec(tv_sec: 0, tv_nsec: 0)
        let received = sigtimedwait(&signals, nil, &zero)
        if received > 0 { interruption = received }
    }
}
