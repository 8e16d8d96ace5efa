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
    typealias Edge = MachineEdge<State, Event>

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
    nonisolated static let impossible = Edge.impossible(states, events, besides: edges)

    @Test(arguments: edges)
    func everyEdgeLeadsWhereTheTableSays(_ edge: Edge) {
        Edge.checkEdge(edge, ControllerLink.transition(from:on:))
    }

    @Test(arguments: impossible)
    func anEventTheStateHasNoEdgeForIsLoggedAndIgnored(_ edge: Edge) {
        Edge.checkImpossible(edge, ControllerLink.transition(from:on:))
    }

    @Test func theTableHasThirtyThreeEdges() {
        #expect(Self.edges.count == 33)
        #expect(Self.edges.count + Self.impossible.count == Self.states.count * Self.events.count)
    }

    @Test func anImpossibleTransitionIsLoggedOnceHowEverOftenItComes() {
        let log = LogLines()
        var machine = StateMachine(State.streaming(Self.subscription), label: "link", transition: ControllerLink.transition(from:on:))
        for _ in 0..<3 { machine.apply(.pairingEnded, log: log.sink) }
        machine.apply(.retryDue, log: log.sink)
        #expect(log.lines(at: .error).count == 2, "\(log.lines(at: .error))")
        #expect(machine.state == .streaming(Self.subscription))
        // Still moved by the events it has edges for.
        let moved = machine.apply(.silence, log: log.sink)
        #expect(moved)
        #expect(machine.state == .silent(Self.subscription))
    }
}
