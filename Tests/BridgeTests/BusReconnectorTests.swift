@testable import Bridge
import EventLoop
import Testing
import TestSupport
import Timebase

/// The one bus reconnector, on a real loop: tries until the bus answers, each wait at least the
/// backoff's, and backs off a connection lost at once like a refusal.
@Suite @MainActor struct BusReconnectorTests {
    @MainActor final class Bus {
        var answersAfter: Int
        var tries: [MonotonicTime] = []
        init(answersAfter: Int) { self.answersAfter = answersAfter }
        func connect(at time: MonotonicTime) -> Bool {
            tries.append(time)
            return tries.count > answersAfter
        }
    }

    @Test func aBusThatAnswersOnTheThirdTryIsConnectedAfterTwoGrowingWaits() throws {
        let reactor = try Reactor()
        let bus = Bus(answersAfter: 2)
        let reconnector = BusReconnector(label: "test bus", reactor: reactor) { bus.connect(at: reactor.now) }
        reconnector.start(connected: false)
        #expect(reconnector.state == .waiting)
        #expect(reactor.run(until: { if case .connected = reconnector.state { true } else { false } }, timeout: .seconds(10)))
        #expect(bus.tries.count == 3)
        let waits = zip(bus.tries.dropFirst(), bus.tries).map { $0 - $1 }
        #expect(waits.count == 2 && waits[0] >= .milliseconds(500) && waits[1] >= .milliseconds(1000), "\(waits)")
        reconnector.stop()
        #expect(reconnector.state == .stopped)
        #expect(reconnector.lost() == nil)
    }

    @Test func aConnectionLostAtOnceBacksOffAndAStableOneStartsOver() throws {
        let reactor = try Reactor()
        let bus = Bus(answersAfter: 0)
        let reconnector = BusReconnector(label: "test bus", reactor: reactor) { bus.connect(at: reactor.now) }
        reconnector.start(connected: true)
        #expect(bus.tries.isEmpty)
        let early = try #require(reconnector.lost())
        #expect(early.early && early.wait == .milliseconds(500))
        #expect(reconnector.lost() == nil) // the same loss told twice
        #expect(reactor.run(until: { bus.tries.count == 1 }, timeout: .seconds(10)))
        guard case .connected(let since) = reconnector.state else { Issue.record("not connected"); return }
        #expect(reactor.run(until: { reactor.now - since >= BusReconnector.stableAfter }, timeout: .seconds(10)))
        let stable = try #require(reconnector.lost())
        #expect(!stable.early && stable.wait == BusReconnector.firstDelay)
        reconnector.stop()
    }
}
