import CLinux
import Descriptors
import Glibc
import Timebase

/// The event loop: epoll over watched file descriptors, one timerfd armed for
/// the earliest deadline, a signalfd, and an eventfd for work queued with
/// `callSoon`. Everything runs on the thread that calls `run()` / `runOnce`,
/// the main thread. An idle loop sleeps in `epoll_wait` with no timeout.
@MainActor
public final class Reactor: DeadlineScheduler {
    /// The epoll descriptor. It is readable whenever the loop has work, so
    /// another loop (a `DispatchSource`, a GLib source) can drive this one by
    /// calling `runOnce(timeout: .zero)` when it is.
    public var fileDescriptor: Int32 { epoll.rawValue }

    private let epoll: FileDescriptor
    private let timer: FileDescriptor
    private let wake: FileDescriptor
    /// Made by the first `handleSignal`.
    private var signals: FileDescriptor?
    private var signalMask = sigset_t()
    private var signalHandlers: [Int32: @MainActor (Int32) -> Void] = [:]

    // Looked up for every ready descriptor; unchecked, that skips a run-time exclusivity check.
    // Accesses cannot overlap: each is a lookup, an insert or a removal that calls nothing (a
    // handler runs after its lookup has returned).
    @exclusivity(unchecked) private var watches = WatchTable()
    // Read or changed every turn; unchecked, that skips the run-time exclusivity checks (about
    // a hundred instructions a turn). Accesses cannot overlap: none calls out while it lasts (a
    // due timer's action runs after `popDue` has returned it; deferred work runs from `running`
    // after the swap, and whatever it defers goes to `soon`).
    @exclusivity(unchecked) private var timers = TimerQueue()
    @exclusivity(unchecked) private var armedDeadline: MonotonicTime?
    @exclusivity(unchecked) private var soon: [@MainActor () -> Void] = []
    @exclusivity(unchecked) private var running: [@MainActor () -> Void] = []
    @exclusivity(unchecked) private var wakePending = false
    private var stopRequested = false
    /// Where `epoll_wait` puts the ready events: allocated once and reused every turn, so a
    /// turn needs no array access (with its exclusivity check) and no closure around the call.
    private let readyEvents: UnsafeMutablePointer<epoll_event>
    private static let readyEventCapacity = 64

    private enum Token {
        static let timer: UInt64 = 1
        static let wake: UInt64 = 2
        static let signal: UInt64 = 3
    }

    /// Makes the epoll, timer and wake descriptors.
    public init() throws(SystemCallError) {
        // A throw closes those already made: their owners go away with the half-made loop.
        epoll = try FileDescriptor(checking: epoll_create1(Int32(EPOLL_CLOEXEC)), from: "epoll_create1")
        timer = try FileDescriptor(checking: timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC)), from: "timerfd_create")
        wake = try FileDescriptor(checking: eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)), from: "eventfd")
        readyEvents = .allocate(capacity: Self.readyEventCapacity)
        readyEvents.initialize(repeating: epoll_event(), count: Self.readyEventCapacity)
        sigemptyset(&signalMask)
        try control(EPOLL_CTL_ADD, timer.rawValue, EPOLLIN.rawValue, Token.timer)
        try control(EPOLL_CTL_ADD, wake.rawValue, EPOLLIN.rawValue, Token.wake)
    }

    isolated deinit {
        for watch in watches.all { watch.reactor = nil }
        readyEvents.deallocate()
    }

    // MARK: File descriptors

    /// Watches `descriptor` for `interest` (`EPOLL_CTL_ADD`). Each descriptor
    /// can have one watch; the handler runs on the loop.
    public func watch(
        _ descriptor: Int32, interest: IOInterest, handler: @escaping @MainActor (IOEvents) -> Void
    ) throws(SystemCallError) -> IOWatch {
        let token = watches.nextToken()
        try control(EPOLL_CTL_ADD, descriptor, interest.rawValue, token)
        let watch = IOWatch(fileDescriptor: descriptor, interest: interest, token: token, reactor: self, handler: handler)
        watches.insert(watch)
        return watch
    }

    func update(_ watch: IOWatch) {
        do {
            try control(EPOLL_CTL_MOD, watch.fileDescriptor, watch.interest.rawValue, watch.token)
        } catch {
            // The descriptor was closed before its watch was cancelled: a bug in the caller.
            Log.error("event loop: cannot update the watch on fd \(watch.fileDescriptor): \(error)")
        }
    }

    func remove(_ watch: IOWatch) {
        guard watches.remove(watch.token) else { return }
        // EBADF/ENOENT here mean the descriptor was already closed: nothing left to remove.
        _ = epoll_ctl(epoll.rawValue, EPOLL_CTL_DEL, watch.fileDescriptor, nil)
    }

    private func control(_ operation: Int32, _ descriptor: Int32, _ mask: UInt32, _ token: UInt64) throws(SystemCallError) {
        var event = epoll_event()
        event.events = mask | EPOLLRDHUP.rawValue
        event.data.u64 = token
        guard epoll_ctl(epoll.rawValue, operation, descriptor, &event) == 0 else { throw SystemCallError("epoll_ctl") }
    }

    // MARK: Timers

    /// The current `CLOCK_MONOTONIC` time.
    public var now: MonotonicTime { MonotonicTime.now() }

    /// Runs `action` on the loop at `deadline` (on the next turn if it has passed).
    public func schedule(at deadline: MonotonicTime, _ action: @escaping @MainActor () -> Void) -> ScheduledTimer {
        let id = timers.insert(deadline, action)
        if armedDeadline.map({ deadline < $0 }) ?? true { rearmTimer() }
        return ScheduledTimer { [weak self] in self?.cancelTimer(id) }
    }

    /// Runs `action` on the loop once `span` has passed.
    public func schedule(after span: TimeSpan, _ action: @escaping @MainActor () -> Void) -> ScheduledTimer {
        schedule(at: now + span, action)
    }

    /// How many timers are pending (for tests and diagnostics).
    public var pendingTimerCount: Int { timers.count }

    private func cancelTimer(_ id: UInt64) {
        timers.cancel(id)
        rearmTimer()
    }

    /// Arms the timerfd for the earliest live deadline, or disarms it.
    private func rearmTimer() {
        let earliest = timers.earliest()
        guard earliest != armedDeadline else { return }
        armedDeadline = earliest
        var spec = itimerspec()
        if let earliest {
            // A zero it_value disarms: a deadline at or before the origin becomes 1 ns.
            let nanoseconds = max(earliest.nanoseconds, 1)
            spec.it_value.tv_sec = Int(nanoseconds / 1_000_000_000)
            spec.it_value.tv_nsec = Int(nanoseconds % 1_000_000_000)
        }
        if timerfd_settime(timer.rawValue, Int32(TFD_TIMER_ABSTIME), &spec, nil) != 0 {
            Log.error("event loop: \(SystemCallError("timerfd_settime"))")
        }
    }

    private func runDueTimers() {
        guard let earliest = timers.earliest() else { return }
        let current = now
        guard earliest <= current else { return }
        while let action = timers.popDue(at: current) { action() }
    }

    // MARK: Deferred work

    /// Runs `action` at the end of this loop turn (or the next one), after the
    /// descriptor handlers and timers. Wakes the loop if it is asleep.
    public func callSoon(_ action: @escaping @MainActor () -> Void) {
        soon.append(action)
        guard !wakePending else { return }
        wakePending = true
        var one: UInt64 = 1
        _ = write(wake.rawValue, &one, MemoryLayout<UInt64>.size)
    }

    private func runSoon() {
        guard !soon.isEmpty else { return }
        swap(&soon, &running)
        for action in running { action() }
        running.removeAll(keepingCapacity: true)
    }

    private func drain(_ descriptor: borrowing FileDescriptor) {
        var value: UInt64 = 0
        _ = read(descriptor.rawValue, &value, MemoryLayout<UInt64>.size)
    }

    // MARK: Signals

    /// Blocks `signal` for this thread and delivers it through the loop's
    /// signalfd to `handler`. Call it before starting any thread, so no other
    /// thread receives the signal.
    public func handleSignal(_ signal: Int32, _ handler: @escaping @MainActor (Int32) -> Void) throws(SystemCallError) {
        signalHandlers[signal] = handler
        sigaddset(&signalMask, signal)
        var mask = signalMask
        guard pthread_sigmask(SIG_BLOCK, &mask, nil) == 0 else { throw SystemCallError("pthread_sigmask") }
        // With a descriptor given, signalfd changes its mask and returns it: nothing new to own.
        if let existing = signals?.rawValue {
            guard signalfd(existing, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) >= 0 else { throw SystemCallError("signalfd") }
            return
        }
        let made = try FileDescriptor(checking: signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC)), from: "signalfd")
        try control(EPOLL_CTL_ADD, made.rawValue, EPOLLIN.rawValue, Token.signal)
        signals = consume made
    }

    /// Sets `SIGPIPE` to be ignored, so a write to a closed socket returns `EPIPE`.
    public static func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }

    private func readSignals() {
        var info = signalfd_siginfo()
        let size = MemoryLayout<signalfd_siginfo>.size
        guard let descriptor = signals?.rawValue else { return }
        while read(descriptor, &info, size) == size {
            let number = Int32(bitPattern: info.ssi_signo)
            signalHandlers[number]?(number)
        }
    }

    // MARK: Running

    /// Runs turns until `stop()` is called.
    public func run() {
        stopRequested = false
        while !stopRequested { runOnce(timeout: nil) }
    }

    /// Makes `run()` return after the current turn.
    public func stop() {
        stopRequested = true
        callSoon {}
    }

    /// Runs turns until `condition` holds or `timeout` passes; returns whether it holds.
    @discardableResult
    public func run(until condition: () -> Bool, timeout: TimeSpan) -> Bool {
        let deadline = now + timeout
        while !condition() {
            let left = deadline - now
            guard left > .zero else { return condition() }
            runOnce(timeout: left)
        }
        return true
    }

    /// One turn: waits up to `timeout` (forever when nil) for a descriptor, a
    /// timer, a signal or deferred work, then runs what is ready: descriptor
    /// handlers, due timers, deferred work. Returns the number of epoll events.
    @discardableResult
    public func runOnce(timeout: TimeSpan?) -> Int {
        var milliseconds: Int32 = -1
        if let timeout {
            let rounded = (max(timeout.nanoseconds, 0) + 999_999) / 1_000_000
            milliseconds = Int32(clamping: rounded)
        }
        if !soon.isEmpty { milliseconds = 0 }
        let count = Int(epoll_wait(epoll.rawValue, readyEvents, Int32(Self.readyEventCapacity), milliseconds))
        if count < 0 && errno != EINTR {
            Log.error("event loop: \(SystemCallError("epoll_wait"))")
        }
        for index in 0..<max(count, 0) {
            let event = readyEvents[index]
            switch event.data.u64 {
            case Token.timer: drain(timer)
            case Token.wake:
                drain(wake)
                wakePending = false
            case Token.signal: readSignals()
            default: watches[event.data.u64]?.handler(IOEvents(epoll: event.events))
            }
        }
        runDueTimers()
        runSoon()
        rearmTimer()
        return max(count, 0)
    }
}
