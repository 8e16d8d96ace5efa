@testable import DaydreamCore
import EventLoop
import Testing

/// One edge of a state machine's table: `event` in `from` leads to `to` (for an
/// event `from` has no edge for, `to` is `from`: the state stays).
struct MachineEdge<State: Equatable & Sendable & StateMachineName, Event: Equatable & Sendable & StateMachineName>:
    Sendable, CustomTestStringConvertible {
    let from: State
    let event: Event
    let to: State

    var testDescription: String { "\(from.name) --\(event.name)--> \(to.name)" }

    /// Every pair of `states` and `events` that `edges` leaves out.
    static func impossible(_ states: [State], _ events: [Event], besides edges: [Self]) -> [Self] {
        states.flatMap { state in
            events.filter { event in !edges.contains { $0.from == state && $0.event == event } }
                .map { Self(from: state, event: $0, to: state) }
        }
    }

    /// Checks `edge` through a `StateMachine` moved by `transition`: the state it leads to,
    /// and the one debug line a change logs.
    @MainActor
    static func checkEdge(_ edge: Self, _ transition: @escaping (State, Event) -> State?) {
        let log = LogLines()
        var machine = StateMachine(edge.from, label: "machine", transition: transition)
        let moved = machine.apply(edge.event, log: log.sink)
        #expect(moved)
        #expect(machine.state == edge.to)
        #expect(log.lines(at: .error).isEmpty)
        let change = "machine: \(edge.from.name) -> \(edge.to.name) on \(edge.event.name)"
        #expect(log.lines(at: .debug) == (edge.to == edge.from ? [] : [change]))
    }

    /// Checks that `edge`'s event, which its state has no edge for, is logged as a bug and changes nothing.
    @MainActor
    static func checkImpossible(_ edge: Self, _ transition: @escaping (State, Event) -> State?) {
        let log = LogLines()
        var machine = StateMachine(edge.from, label: "machine", transition: transition)
        let moved = machine.apply(edge.event, log: log.sink)
        #expect(!moved)
        #expect(machine.state == edge.from)
        #expect(log.lines(at: .error) == [
            "machine: bug: no transition for \(edge.event.name) in state \(edge.from.name); ignored (please report it)",
        ])
        #expect(transition(edge.from, edge.event) == nil)
    }
}

/// Lines logged through `sink`, with their levels.
@MainActor final class LogLines {
    private var lines: [(Log.Level, String)] = []
    var sink: LogSink { LogSink(level: .debug) { [self] level, line in lines.append((level, line)) } }
    func lines(at level: Log.Level) -> [String] { lines.filter { $0.0 == level }.map(\.1) }
}
