import Timebase

extension DaydreamControllerManager {
    /// Where the manager's discovery on the adapter is.
    enum DiscoveryState: Equatable, Sendable, StateMachineName {
        /// Not discovering.
        case off
        /// SetDiscoveryFilter and StartDiscovery sent, not answered yet.
        case starting
        /// BlueZ answered InProgress (the kernel is busy with an earlier discovery):
        /// asked again at `retryAt`, if discovery is still wanted then.
        case busy(retryAt: MonotonicTime)
        /// Discovering.
        case on

        var name: String {
            switch self {
            case .off: "off"
            case .starting: "starting"
            case .busy: "busy"
            case .on: "on"
            }
        }
    }

    /// What happens to discovery.
    enum DiscoveryEvent: Equatable, Sendable, StateMachineName {
        /// StartDiscovery sent.
        case start
        /// StartDiscovery succeeded.
        case started
        /// StartDiscovery answered InProgress: ask again at `retryAt`.
        case busy(retryAt: MonotonicTime)
        /// StartDiscovery failed otherwise.
        case failed
        /// StopDiscovery sent.
        case stop
        /// The time to ask again came.
        case retryDue
        /// BlueZ says nothing discovers: `Discovering` went false, or the adapter, bluetoothd or the bus went away.
        case reset
        /// The manager stopped: no retry.
        case managerStopped

        var name: String {
            switch self {
            case .start: "start"
            case .started: "started"
            case .busy: "busy"
            case .failed: "failed"
            case .stop: "stop"
            case .retryDue: "retry due"
            case .reset: "reset"
            case .managerStopped: "manager stopped"
            }
        }
    }

    /// Where `event` leads from `state`; nil when `state` has no edge for it (a bug in the caller).
    /// StartDiscovery's answers may come in any state: a reset or a second call can come first.
    nonisolated static func transition(from state: DiscoveryState, on event: DiscoveryEvent) -> DiscoveryState? {
        switch (state, event) {
        case (.off, .start), (.busy, .start): .starting
        case (_, .started): .on
        case (.off, .busy(let time)), (.starting, .busy(let time)): .busy(retryAt: time)
        case (.busy, .busy), (.on, .busy): state  // an earlier retry stays; discovering already
        case (.starting, .failed), (.off, .failed): .off
        case (.busy, .failed), (.on, .failed): state
        case (.on, .stop): .off
        case (.busy, .retryDue): .off
        case (.off, .reset), (.starting, .reset), (.on, .reset): .off
        case (.busy, .reset): state  // the retry looks again
        case (.busy, .managerStopped): .off
        case (.off, .managerStopped), (.starting, .managerStopped), (.on, .managerStopped): state
        default: nil
        }
    }
}
