import Timebase

extension ControllerLink {
    /// Where a link is. Each case carries what exists only there; the link's one
    /// state timer (`stateTimer`) waits for the deadline its state names, and is
    /// cancelled whenever the state changes.
    enum State: Equatable, Sendable, StateMachineName {
        /// Not connected; at `retryAt`, the next attempt (nil: none pending).
        case idle(retryAt: MonotonicTime?)
        /// Pairing first: the controller's firmware sends nothing without a bond.
        case pairing
        /// `Device1.Connect` sent.
        case connecting
        /// Connected; waiting for `ServicesResolved` until the deadline.
        case resolving(until: MonotonicTime)
        /// Acquiring the input notifications until the deadline; `requested` once
        /// AcquireNotify (or its StartNotify fallback) is under way, so GATT objects
        /// appearing meanwhile start no second subscription.
        case subscribing(until: MonotonicTime, requested: Bool)
        /// Packets flow.
        case streaming(Subscription)
        /// The stream went silent: everything is released, and the next notification resumes it.
        case silent(Subscription)
        /// BlueZ reported `Connected=false` at `since` while the stream lived: everything is
        /// released, and the next `silenceTimeout` decides between resuming and losing the link.
        case reportedDown(Subscription, since: MonotonicTime)
        /// Connected and bonded, the input notifications left to another program (Monado):
        /// nothing is read and no silence is judged; a resubscription ends it.
        case lent

        /// Not connected (whether or not a retry is pending).
        var isIdle: Bool { if case .idle = self { true } else { false } }

        /// Subscribing, requested or not.
        var isSubscribing: Bool { if case .subscribing = self { true } else { false } }

        /// Streaming, or released and waiting for the stream to decide.
        var subscription: Subscription? {
            switch self {
            case .streaming(let subscription), .silent(let subscription), .reportedDown(let subscription, _): subscription
            case .idle, .pairing, .connecting, .resolving, .subscribing, .lent: nil
            }
        }

        /// Interrupted: released, the stream still read.
        var isInterrupted: Bool {
            switch self {
            case .silent, .reportedDown: true
            case .idle, .pairing, .connecting, .resolving, .subscribing, .streaming, .lent: false
            }
        }

        var name: String {
            switch self {
            case .idle(let retryAt): retryAt == nil ? "idle" : "idle (retry pending)"
            case .pairing: "pairing"
            case .connecting: "connecting"
            case .resolving: "resolving"
            case .subscribing(_, let requested): requested ? "subscribing (requested)" : "subscribing"
            case .streaming: "streaming"
            case .silent: "silent"
            case .reportedDown: "reported down"
            case .lent: "lent"
            }
        }
    }

    /// What a subscription that reached the stream holds for as long as the stream lives.
    struct Subscription: Equatable, Sendable {
        /// How packets arrive.
        var method: DaydreamControllerManager.NotifyMethod
        /// When the stream began: the backoff restarts only after a stream held.
        var since: MonotonicTime
    }

    /// What happens to a link.
    enum Event: Equatable, Sendable, StateMachineName {
        /// The device is not paired: pair it first.
        case pair
        /// The pairing ended (either way).
        case pairingEnded
        /// `Device1.Connect` sent.
        case connect
        /// `Device1.Connect` failed.
        case connectFailed
        /// The device is connected; its services must be resolved by the deadline.
        case connected(resolveBy: MonotonicTime)
        /// The device's services are resolved; the subscription must be made by the deadline.
        case servicesResolved(subscribeBy: MonotonicTime)
        /// AcquireNotify (or StartNotify) sent.
        case subscriptionRequested
        /// The input notifications flow, through `method`, from `at`.
        case subscribed(DaydreamControllerManager.NotifyMethod, at: MonotonicTime)
        /// No notification for `silenceTimeout`.
        case silence
        /// BlueZ reported `Connected=false` at `at`.
        case reportedDown(at: MonotonicTime)
        /// A notification arrived while the link was interrupted.
        case notificationWhileInterrupted
        /// Notifications kept coming through the `silenceTimeout` after `Connected=false`.
        case streamWentOn
        /// The input notifications were let go for another program (or found so on a connection).
        case lend
        /// The link is gone (or was never up): a pending retry stays.
        case lost
        /// The next attempt is due at `at`.
        case retryScheduled(at: MonotonicTime)
        /// The pending retry's time came.
        case retryDue
        /// No retry: the link stops trying (or the manager stopped).
        case retryCancelled

        var name: String {
            switch self {
            case .pair: "pair"
            case .pairingEnded: "pairing ended"
            case .connect: "connect"
            case .connectFailed: "connect failed"
            case .connected: "connected"
            case .servicesResolved: "services resolved"
            case .subscriptionRequested: "subscription requested"
            case .subscribed: "subscribed"
            case .silence: "silence"
            case .reportedDown: "reported down"
            case .notificationWhileInterrupted: "notification while interrupted"
            case .streamWentOn: "stream went on"
            case .lend: "lend"
            case .lost: "lost"
            case .retryScheduled: "retry scheduled"
            case .retryDue: "retry due"
            case .retryCancelled: "retry cancelled"
            }
        }
    }

    /// Where `event` leads from `state`; nil when `state` has no edge for it (a bug in the caller).
    /// An event a state expects but has nothing to do for leads back to the same state.
    nonisolated static func transition(from state: State, on event: Event) -> State? {
        switch (state, event) {
        case (.idle(retryAt: nil), .pair): .pairing
        case (.idle(retryAt: nil), .connect): .connecting
        case (.idle(retryAt: nil), .connected(let deadline)): .resolving(until: deadline)
        case (.idle, .servicesResolved(let deadline)): .subscribing(until: deadline, requested: false)
        case (.idle, .retryScheduled(let time)): .idle(retryAt: time)
        case (.idle(retryAt: .some), .retryDue): .idle(retryAt: nil)
        case (.idle, .retryCancelled): .idle(retryAt: nil)
        case (.idle, .lost): state

        case (.pairing, .pairingEnded): .idle(retryAt: nil)

        case (.connecting, .connected(let deadline)): .resolving(until: deadline)
        case (.connecting, .connectFailed): .idle(retryAt: nil)

        case (.resolving, .servicesResolved(let deadline)): .subscribing(until: deadline, requested: false)

        case (.subscribing(let deadline, requested: false), .subscriptionRequested): .subscribing(until: deadline, requested: true)
        case (.subscribing, .subscribed(let method, let time)): .streaming(Subscription(method: method, since: time))

        case (.streaming(let subscription), .silence): .silent(subscription)
        case (.streaming(let subscription), .reportedDown(let time)): .reportedDown(subscription, since: time)

        case (.silent(let subscription), .notificationWhileInterrupted): .streaming(subscription)
        case (.silent(let subscription), .reportedDown(let time)): .reportedDown(subscription, since: time)

        // Dropped: the end of the `silenceTimeout` decides.
        case (.reportedDown, .notificationWhileInterrupted): state
        case (.reportedDown(let subscription, _), .streamWentOn): .streaming(subscription)

        // Lent from wherever the link is up (services resolved while lent go straight here);
        // taking it back subscribes again.
        case (.idle, .lend), (.resolving, .lend), (.subscribing, .lend), (.streaming, .lend),
             (.silent, .lend), (.reportedDown, .lend), (.lent, .lend):
            .lent
        case (.lent, .servicesResolved(let deadline)): .subscribing(until: deadline, requested: false)

        case (.pairing, .lost), (.connecting, .lost), (.resolving, .lost), (.subscribing, .lost),
             (.streaming, .lost), (.silent, .lost), (.reportedDown, .lost), (.lent, .lost):
            .idle(retryAt: nil)

        default: nil
        }
    }
}
