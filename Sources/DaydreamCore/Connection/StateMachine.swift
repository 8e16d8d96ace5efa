import EventLoop

/// A state or an event of a `StateMachine`, named for the log.
public protocol StateMachineName {
    /// The case's name, without its data.
    var name: String { get }
}

/// An explicit state machine, in the manner of libinput's tap and button machines:
/// `transition` says, for each state, where every event it expects leads, and
/// `apply` is the only way the state changes. An event the current state has no
/// edge for is a bug in whoever sent it: it is logged (once per state and event,
/// so a loop does not flood the journal) and ignored, the state left as it was.
/// Every change is logged at debug level.
public struct StateMachine<State: Equatable & StateMachineName, Event: StateMachineName> {
    /// Where the machine is.
    public private(set) var state: State
    /// Prefixes every line logged (whose machine it is).
    public let label: String
    private let transition: (State, Event) -> State?
    private var reported: Set<String> = []

    /// A machine in `initial`, moved by `transition`.
    public init(_ initial: State, label: String, transition: @escaping (State, Event) -> State?) {
        state = initial
        self.label = label
        self.transition = transition
    }

    /// Moves to where `event` leads from the current state; false, logged, and
    /// nothing changed when the current state has no edge for it.
    @MainActor @discardableResult
    public mutating func apply(_ event: Event, log: LogSink) -> Bool {
        guard let next = transition(state, event) else {
            if reported.insert("\(state.name) \(event.name)").inserted {
                log.error("\(label): bug: no transition for \(event.name) in state \(state.name); ignored (please report it)")
            }
            return false
        }
        if next != state { log.debug("\(label): \(state.name) -> \(next.name) on \(event.name)") }
        state = next
        return true
    }
}
