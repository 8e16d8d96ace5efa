@testable import Bridge
import DaydreamCore
import Testing

/// The one state: told each record as it is, it announces what changed, once, field by field.
@Suite @MainActor struct BridgeStateTests {
    @MainActor final class Heard {
        var changes: [BridgeState.Change] = []
        var received = 0
    }

    static func record(_ address: String = "C0:DD:EE:00:00:01", battery: Int? = nil, profile: String = "pad") -> ControllerStatus {
        ControllerStatus(
            address: address, name: "Daydream controller", isConnected: true, batteryPercent: battery, firmware: nil,
            profile: profile, statistics: DDControllerStatistics(), gyroBias: nil, isCalibrating: false)
    }

    @Test func eachChangeIsAnnouncedOnceWithItsFields() {
        let state = BridgeState()
        let heard = Heard()
        let observation = state.observe { heard.changes.append($0) }
        state.set(Self.record())
        state.set(Self.record())
        state.set(Self.record(battery: 57))
        state.set(Self.record(battery: 57))
        state.set(Self.record(battery: 40, profile: "keys"))
        state.set(BridgeState.Bridge(profiles: ["pad", "keys"], identity: "daydream", activeProfile: "pad"))
        state.set(BridgeState.Bridge(profiles: ["pad", "keys"], identity: "daydream", activeProfile: "pad"))
        #expect(heard.changes == [
            .controllerAdded("C0:DD:EE:00:00:01"),
            .controller("C0:DD:EE:00:00:01", [.battery]),
            .controller("C0:DD:EE:00:00:01", [.battery, .profile]),
            .bridge([.profiles, .identity, .activeProfile]),
        ])
        observation.cancel()
        state.set(Self.record(battery: 10))
        #expect(heard.changes.count == 4)
        #expect(state.controller("C0:DD:EE:00:00:01")?.batteryPercent == 10)
    }

    @Test func theCountsAreReadLiveAndNeverAnnounced() {
        let state = BridgeState()
        let heard = Heard()
        state.statistics = { _ in
            var statistics = DDControllerStatistics()
            statistics.received = heard.received
            return statistics
        }
        let observation = state.observe { heard.changes.append($0) }
        state.set(Self.record())
        heard.received = 1234
        #expect(state.controllers.first?.statistics.received == 1234)
        #expect(heard.changes.count == 1)
        withExtendedLifetime(observation) {}
    }

    @Test func anObservationThatGoesStopsItsHandler() {
        let state = BridgeState()
        let heard = Heard()
        var observation: Observation? = state.observe { heard.changes.append($0) }
        state.set(Self.record())
        observation = nil
        state.set(Self.record("C0:DD:EE:00:00:02"))
        #expect(heard.changes.count == 1 && observation == nil)
    }
}
