@testable import DaydreamCore
import EventLoop
import Testing
import Timebase

/// The link's state machine without BlueZ: every edge of its table, every pair of
/// state and event it has no edge for, and what `StateMachine` does with those.
@MainActor
@Suite struct ControllerLinkStateTests {
    typealias State = ControllerLink.State
    typealias Event = ControllerLink.Event

    /// One edge: `event` in `from` leads to `to`.
    struct Edge: Sendable, CustomTestStringConvertible {
        let from: State
        let event: Event
        let to: State
        var testDescription: String { "\(from.name) --\(event.name)--> \(to.name)" }
    }

    nonisolated static let earlier = MonotonicTime(nanoseconds: 1_000)
    nonisolated static let deadline = MonotonicTime(nanoseconds: 2_000)
    nonisolated static let later = MonotonicTime(nanoseconds: 3_000)
    nonisolated static let subscription = ControllerLink.Subscription(method: .acquireNotify, since: earlier)

    /// Every state, with data that tells the edges' effects apart.
    nonisolated static let states: [State] = [
        .idle(retryAt: nil), .idle(retryAt: deadline), .pairing, .connecting, .resolving(until: deadline),
        .subscribing(until: deadline, requested: false), .subscribing(until: deadline, requested: true),
        .streaming(subscription), .silent(subscription), .reportedDown(subscription, since: deadline),
    ]

    /// Every event, with times none of the states holds.
    nonisolated static let events: [Event] = [
        .pair, .pairingEnded, .connect, .connectFailed, .connected(resolveBy: later),
        .servicesResolved(subscribeBy: later), .subscriptionRequested, .subscribed(.startNotify, at: later),
        .silence, .reportedDown(at: later), .notificationWhileInterrupted, .streamWentOn, .lost,
        .retryScheduled(at: later), .retryDue, .retryCancelled,
    ]

    /// The link's whole table, written out.
    nonisolated static let edges: [Edge] = {
        let idle = State.idle(retryAt: nil)
        let retrying = State.idle(retryAt: deadline)
        let subscribing = State.subscribing(until: deadline, requested: false)
        let requested = State.subscribing(until: deadline, requested: true)
        let newSubscribing = State.subscribing(until: later, requested: false)
        let newStream = State.streaming(.init(method: .startNotify, since: later))
        let reportedDown = State.reportedDown(subscription, since: deadline)
        let edge = Edge.init(from:event:to:)
        return [
            edge(idle, .pair, .pairing),
            edge(idle, .connect, .connecting),
            edge(idle, .connected(resolveBy: later), .resolving(until: later)),
            edge(idle, .servicesResolved(subscribeBy: later), newSubscribing),
            edge(idle, .retryScheduled(at: later), .idle(retryAt: later)),
            edge(idle, .retryCancelled, idle),
            edge(idle, .lost, idle),
            edge(retrying, .servicesResolved(subscribeBy: later), newSubscribing),
            edge(retrying, .retryScheduled(at: later), .idle(retryAt: later)),
            edge(retrying, .retryDue, idle),
            edge(retrying, .retryCancelled, idle),
            edge(retrying, .lost, retrying),
            edge(.pairing, .pairingEnded, idle),
            edge(.pairing, .lost, idle),
            edge(.connecting, .connected(resolveBy: later), .resolving(until: later)),
            edge(.connecting, .connectFailed, idle),
            edge(.connecting, .lost, idle),
            edge(.resolving(until: deadline), .servicesResolved(subscribeBy: later), newSubscribing),
            edge(.resolving(until: deadline), .lost, idle),
            edge(subscribing, .subscriptionRequested, requested),
            edge(subscribing, .subscribed(.startNotify, at: later), newStream),
            edge(subscribing, .lost, idle),
            edge(requested, .subscribed(.startNotify, at: later), newStream),
            edge(requested, .lost, idle),
            edge(.streaming(subscription), .silence, .silent(subscription)),
            edge(.streaming(subscription), .reportedDown(at: later), .reportedDown(subscription, since: later)),
            edge(.streaming(subscription), .lost, idle),
            edge(.silent(subscription), .notificationWhileInterrupted, .streaming(subscription)),
            edge(.silent(subscription), .reportedDown(at: later), .reportedDown(subscription, since: later)),
            edge(.silent(subscription), .lost, idle),
            edge(reportedDown, .notificationWhileInterrupted, reportedDown),
            edge(reportedDown, .streamWentOn, .streaming(subscription)),
            edge(reportedDown, .lost, idle),
        ]
    }()

    /// Every pair of state and event the table has no edge for.
    nonisolated static let impossible: [Edge] = states.flatMap { state in
        events.filter { event in !edges.contains { $0.from == state && $0.event == event } }
            .map { Edge(from: state, event: $0, to: state) }
    }

    /// Lines logged through `sink`.
    @MainActor final class Lines {
        var lines: [(Log.Level, String)] = []
        var sink: LogSink { LogSink(level: .debug) { [self] level, line in lines.append((level, line)) } }
        var errors: [String] { lines.filter { $0.0 == .error }.map(\.1) }
    }

    func machine(in state: State) -> StateMachine<State, Event> {
        StateMachine(state, label: "C0:DD:EE:00:00:01", transition: ControllerLink.transition(from:on:))
    }

    @Test(arguments: edges)
    func everyEdgeLeadsWhereTheTableSays(_ edge: Edge) {
        let log = Lines()
        var machine = machine(in: edge.from)
        let moved = machine.apply(edge.event, log: log.sink)
        #expect(moved)
        #expect(machine.state == edge.to)
        #expect(log.errors.isEmpty)
        // A change is logged at debug level, naming both states and the event.
        let changes = log.lines.filter { $0.0 == .debug }.map(\.1)
        #expect(changes == (edge.to == edge.from ? [] : ["C0:DD:EE:00:00:01: \(edge.from.name) -> \(edge.to.name) on \(edge.event.name)"]))
    }

    @Test(arguments: impossible)
    func anEventTheStateHasNoEdgeForIsLoggedAndIgnored(_ edge: Edge) {
        let log = Lines()
        var machine = machine(in: edge.from)
        let moved = machine.apply(edge.event, log: log.sink)
        #expect(!moved)
        #expect(machine.state == edge.from)
        #expect(log.errors == [
            "C0:DD:EE:00:00:01: bug: no transition for \(edge.event.name) in state \(edge.from.name); ignored (please report it)",
        ])
    }

    @Test func theTableIsWrittenOutWhole() {
        // Every pair is either an edge or impossible, and the table agrees with the list above.
        #expect(Self.edges.count + Self.impossible.count == Self.states.count * Self.events.count)
        #expect(Self.edges.count == 33)
        for state in Self.states {
            for event in Self.events {
                let listed = Self.edges.first { $0.from == state && $0.event == event }?.to
                #expect(ControllerLink.transition(from: state, on: event) == listed, "\(state.name) on \(event.name)")
            }
        }
    }

    @Test func anImpossibleTransitionIsLoggedOnceHowEverOftenItComes() {
        let log = Lines()
        var machine = machine(in: .streaming(Self.subscription))
        for _ in 0..<3 { machine.apply(.pairingEnded, log: log.sink) }
        machine.apply(.retryDue, log: log.sink)
        #expect(log.errors.count == 2, "\(log.errors)")
        #expect(machine.state == .streaming(Self.subscription))
        // Still moved by the events it has edges for.
        let moved = machine.apply(.silence, log: log.sink)
        #expect(moved)
        #expect(machine.state == .silent(Self.subscription))
    }
}
