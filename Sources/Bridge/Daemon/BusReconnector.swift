import DaydreamCore
import EventLoop
import Timebase

/// Keeps one bus connection up: the system bus BlueZ is followed on, and the bus the D-Bus API
/// is on, each have one. A try that fails, or a connection that is lost, is tried again after
/// `BusRetryBackoff`'s wait; the owner says how to connect and is told nothing else.
///
/// A named state machine (`StateMachine`): `stopped`, `connected` (since when: a loss within
/// `stableAfter` backs off like a refusal), `waiting` (a try is due after the wait).
@MainActor
final class BusReconnector {
    /// Where the connection is.
    enum State: Equatable, Sendable, StateMachineName {
        /// Not kept: before `start`, after `stop`.
        case stopped
        /// Up since then.
        case connected(since: MonotonicTime)
        /// Down; the next try is due after the wait.
        case waiting

        var name: String {
            switch self {
            case .stopped: "stopped"
            case .connected: "connected"
            case .waiting: "waiting"
            }
        }
    }

    /// What moves it.
    enum Event: Equatable, Sendable, StateMachineName {
        case connected(at: MonotonicTime)
        case failed
        case lost
        case stop

        var name: String {
            switch self {
            case .connected: "connected"
            case .failed: "failed"
            case .lost: "lost"
            case .stop: "stop"
            }
        }
    }

    /// The first wait before trying again.
    static let firstDelay = TimeSpan.milliseconds(250)
    /// The longest wait between tries.
    static let maximumDelay = TimeSpan.seconds(10)
    /// How long a connection must have lasted for its loss to start the waits over.
    static let stableAfter = TimeSpan.seconds(1)

    private let reactor: Reactor
    private let connect: @MainActor () -> Bool
    private var machine: StateMachine<State, Event>
    private var backoff = BusRetryBackoff(first: firstDelay, maximum: maximumDelay, stableAfter: stableAfter)
    private var timer: ScheduledTimer?

    /// A reconnector named `label` in the log; `connect` makes the connection and says whether
    /// it answered.
    init(label: String, reactor: Reactor, connect: @escaping @MainActor () -> Bool) {
        self.reactor = reactor
        self.connect = connect
        machine = StateMachine(.stopped, label: label, transition: Self.transition)
    }

    /// Where the connection is now.
    var state: State { machine.state }

    /// Starts keeping the connection: `connected` when the owner already has one, else a try now.
    func start(connected: Bool) {
        guard state == .stopped else { return }
        if connected {
            apply(.connected(at: reactor.now))
        } else {
            attempt()
        }
    }

    /// The connection went away: tries again after the wait. The wait, and whether the
    /// connection was lost before it counted as stable, for the owner's log; nil when it was
    /// not up (a second report of the same loss).
    @discardableResult
    func lost() -> (wait: TimeSpan, early: Bool)? {
        guard case .connected(let since) = state else { return nil }
        let (wait, early) = backoff.afterLoss(lasted: reactor.now - since)
        apply(.lost)
        schedule(after: wait)
        return (wait, early)
    }

    /// Stops trying; the owner closes what it has.
    func stop() {
        timer?.cancel()
        timer = nil
        apply(.stop)
    }

    private func attempt() {
        timer = nil
        if connect() {
            apply(.connected(at: reactor.now))
        } else {
            apply(.failed)
            schedule(after: backoff.afterFailure())
        }
    }

    private func schedule(after wait: TimeSpan) {
        timer?.cancel()
        timer = reactor.schedule(after: wait) { [weak self] in
            guard let self, self.state == .waiting else { return }
            self.attempt()
        }
    }

    private func apply(_ event: Event) {
        machine.apply(event, log: Logger.librarySink)
    }

    private static func transition(from state: State, on event: Event) -> State? {
        switch (state, event) {
        case (_, .stop): .stopped
        case (.stopped, .connected(let time)), (.waiting, .connected(let time)): .connected(since: time)
        case (.stopped, .failed), (.waiting, .failed): .waiting
        case (.connected, .lost): .waiting
        default: nil
        }
    }
}
