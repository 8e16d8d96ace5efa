@testable import DaydreamCore
import Testing
import Timebase

/// The manager's discovery and adapter machines without BlueZ: every edge of their
/// tables, and every pair of state and event they have no edge for.
@MainActor
@Suite struct ManagerStateTests {
    typealias Manager = DaydreamControllerManager
    typealias DiscoveryEdge = MachineEdge<Manager.DiscoveryState, Manager.DiscoveryEvent>
    typealias AdapterEdge = MachineEdge<Manager.AdapterState, Manager.AdapterEvent>

    nonisolated static let earlier = MonotonicTime(nanoseconds: 1_000)
    nonisolated static let deadline = MonotonicTime(nanoseconds: 2_000)
    nonisolated static let later = MonotonicTime(nanoseconds: 3_000)

    // MARK: Discovery

    nonisolated static let discoveryStates: [Manager.DiscoveryState] = [.off, .starting, .busy(retryAt: deadline), .on]
    nonisolated static let discoveryEvents: [Manager.DiscoveryEvent] = [
        .start, .started, .busy(retryAt: later), .failed, .stop, .retryDue, .reset, .managerStopped,
    ]

    nonisolated static let discoveryEdges: [DiscoveryEdge] = {
        let edge = DiscoveryEdge.init(from:event:to:)
        let busy = Manager.DiscoveryState.busy(retryAt: deadline)
        let busyLater = Manager.DiscoveryState.busy(retryAt: later)
        return [
            edge(.off, .start, .starting),
            edge(.off, .started, .on),
            edge(.off, .busy(retryAt: later), busyLater),
            edge(.off, .failed, .off),
            edge(.off, .reset, .off),
            edge(.off, .managerStopped, .off),
            edge(.starting, .started, .on),
            edge(.starting, .busy(retryAt: later), busyLater),
            edge(.starting, .failed, .off),
            edge(.starting, .reset, .off),
            edge(.starting, .managerStopped, .starting),
            edge(busy, .start, .starting),
            edge(busy, .started, .on),
            edge(busy, .busy(retryAt: later), busy),
            edge(busy, .failed, busy),
            edge(busy, .retryDue, .off),
            edge(busy, .reset, busy),
            edge(busy, .managerStopped, .off),
            edge(.on, .started, .on),
            edge(.on, .busy(retryAt: later), .on),
            edge(.on, .failed, .on),
            edge(.on, .stop, .off),
            edge(.on, .reset, .off),
            edge(.on, .managerStopped, .on),
        ]
    }()

    nonisolated static let discoveryImpossible = DiscoveryEdge.impossible(discoveryStates, discoveryEvents, besides: discoveryEdges)

    @Test(arguments: discoveryEdges)
    func everyDiscoveryEdgeLeadsWhereTheTableSays(_ edge: DiscoveryEdge) {
        DiscoveryEdge.checkEdge(edge, Manager.transition(from:on:))
    }

    @Test(arguments: discoveryImpossible)
    func aDiscoveryEventItsStateHasNoEdgeForIsLoggedAndIgnored(_ edge: DiscoveryEdge) {
        DiscoveryEdge.checkImpossible(edge, Manager.transition(from:on:))
    }

    // MARK: Adapter

    nonisolated static let adapterStates: [Manager.AdapterState] = [
        .unknown, .awaited(graceEnds: deadline), .missing, .unpowered, .poweringOn, .powered,
    ]
    /// A missing adapter within the grace and at its end.
    nonisolated static let adapterEvents: [Manager.AdapterEvent] = [
        .serviceAppeared(graceEnds: later), .serviceVanished, .managerStopped, .adapterMissing(at: earlier),
        .adapterMissing(at: deadline), .adapterOff, .powerOnSent, .powerOnAnswered, .adapterPowered,
    ]

    nonisolated static let adapterEdges: [AdapterEdge] = {
        let edge = AdapterEdge.init(from:event:to:)
        let appeared = Manager.AdapterState.awaited(graceEnds: later)
        let awaited = Manager.AdapterState.awaited(graceEnds: deadline)
        /// What every state but `unknown` does with bluetoothd and the adapter coming and going.
        func common(_ state: Manager.AdapterState) -> [AdapterEdge] {
            [
                edge(state, .serviceAppeared(graceEnds: later), appeared),
                edge(state, .serviceVanished, .unknown),
                edge(state, .managerStopped, .unknown),
                edge(state, .adapterMissing(at: deadline), .missing),
                edge(state, .adapterPowered, .powered),
            ]
        }
        return [
            edge(.unknown, .serviceAppeared(graceEnds: later), appeared),
            edge(.unknown, .serviceVanished, .unknown),
            edge(.unknown, .managerStopped, .unknown),
            edge(.unknown, .powerOnAnswered, .unknown),
        ] + common(awaited) + [
            edge(awaited, .adapterMissing(at: earlier), awaited),
            edge(awaited, .adapterOff, .unpowered),
            edge(awaited, .powerOnSent, .poweringOn),
            edge(awaited, .powerOnAnswered, awaited),
        ] + common(.missing) + [
            edge(.missing, .adapterMissing(at: earlier), .missing),
            edge(.missing, .adapterOff, .unpowered),
            edge(.missing, .powerOnSent, .poweringOn),
            edge(.missing, .powerOnAnswered, .missing),
        ] + common(.unpowered) + [
            edge(.unpowered, .adapterMissing(at: earlier), .missing),
            edge(.unpowered, .adapterOff, .unpowered),
            edge(.unpowered, .powerOnSent, .poweringOn),
            edge(.unpowered, .powerOnAnswered, .unpowered),
        ] + common(.poweringOn) + [
            edge(.poweringOn, .adapterMissing(at: earlier), .missing),
            edge(.poweringOn, .adapterOff, .poweringOn),
            edge(.poweringOn, .powerOnAnswered, .unpowered),
        ] + common(.powered) + [
            edge(.powered, .adapterMissing(at: earlier), .missing),
            edge(.powered, .adapterOff, .unpowered),
            edge(.powered, .powerOnSent, .poweringOn),
            edge(.powered, .powerOnAnswered, .powered),
        ]
    }()

    nonisolated static let adapterImpossible = AdapterEdge.impossible(adapterStates, adapterEvents, besides: adapterEdges)

    @Test(arguments: adapterEdges)
    func everyAdapterEdgeLeadsWhereTheTableSays(_ edge: AdapterEdge) {
        AdapterEdge.checkEdge(edge, Manager.transition(from:on:))
    }

    @Test(arguments: adapterImpossible)
    func anAdapterEventItsStateHasNoEdgeForIsLoggedAndIgnored(_ edge: AdapterEdge) {
        AdapterEdge.checkImpossible(edge, Manager.transition(from:on:))
    }

    @Test func theTablesHaveTheirEdges() {
        #expect(Self.discoveryEdges.count == 24)
        #expect(Self.discoveryImpossible.count == 8)
        #expect(Self.adapterEdges.count == 48)
        // Nothing is judged about the adapter before bluetoothd appeared, and PowerOn is not sent twice.
        #expect(Self.adapterImpossible.map(\.testDescription) == [
            "unknown --adapter missing--> unknown", "unknown --adapter missing--> unknown",
            "unknown --adapter off--> unknown", "unknown --power on sent--> unknown",
            "unknown --adapter powered--> unknown", "powering on --power on sent--> powering on",
        ])
    }
}
