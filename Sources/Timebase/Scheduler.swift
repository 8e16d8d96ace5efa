/// Something that runs work at a deadline on the caller's thread: the event
/// loop's timers in the daemon, a `ManualScheduler` in tests.
@MainActor
public protocol DeadlineScheduler: AnyObject {
    /// The scheduler's current time.
    var now: MonotonicTime { get }
    /// Runs `action` once at `deadline` (at once on the next turn when it has passed).
    func schedule(at deadline: MonotonicTime, _ action: @escaping @MainActor () -> Void) -> ScheduledTimer
}

/// A handle on scheduled work; `cancel()` stops it from running.
@MainActor
public final class ScheduledTimer {
    public private(set) var isCancelled = false
    private let onCancel: @MainActor () -> Void

    public init(onCancel: @escaping @MainActor () -> Void) { self.onCancel = onCancel }

    public func cancel() {
        guard !isCancelled else { return }
        isCancelled = true
        onCancel()
    }
}

/// A scheduler whose clock only moves when a test moves it.
@MainActor
public final class ManualScheduler: DeadlineScheduler {
    // Both read on every `advance`; unchecked, they skip the run-time exclusivity checks (the
    // benchmark advances once a packet). No access overlaps another: an entry is removed before
    // its action runs, and the search for the earliest reads the array only inside its comparisons.
    @exclusivity(unchecked) public private(set) var now: MonotonicTime
    @exclusivity(unchecked) private var pending: [(id: Int, deadline: MonotonicTime, action: @MainActor () -> Void)] = []
    private var nextID = 0

    public init(now: MonotonicTime = .zero) { self.now = now }

    public func schedule(at deadline: MonotonicTime, _ action: @escaping @MainActor () -> Void) -> ScheduledTimer {
        nextID += 1
        let id = nextID
        pending.append((id, deadline, action))
        return ScheduledTimer { [weak self] in self?.pending.removeAll { $0.id == id } }
    }

    /// The earliest pending deadline, if any.
    public var nextDeadline: MonotonicTime? { pending.map(\.deadline).min() }

    /// Moves the clock to `time`, running every action due by then in deadline order.
    public func advance(to time: MonotonicTime) {
        while let index = pending.indices.min(by: { pending[$0].deadline < pending[$1].deadline }),
              pending[index].deadline <= time {
            let entry = pending.remove(at: index)
            now = max(now, entry.deadline)
            entry.action()
        }
        now = max(now, time)
    }

    /// Moves the clock forward by `span`.
    public func advance(by span: TimeSpan) { advance(to: now + span) }
}
