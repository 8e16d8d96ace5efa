import DSU
import DSUServer
import DaydreamCore
import DaydreamProtocol
import EventLoop
import Testing
import Timebase

/// A fifth controller: named once in the log, then given the slot of a controller that goes away.
@MainActor
@Suite struct DSUSlotWaitTests {
    typealias Rig = DSUServerTests.Rig

    /// The lines a server logged.
    @MainActor
    final class Lines {
        var lines: [String] = []
        var sink: LogSink { LogSink(level: .debug) { [self] _, line in lines.append(line) } }
    }

    static func address(_ index: Int) -> String { "C0:DD:EE:00:00:0\(index)" }
    static func mac(_ index: Int) -> [UInt8] { [0xC0, 0xDD, 0xEE, 0x00, 0x00, UInt8(index)] }

    /// A feed for controller `index`, connected, handed to the server.
    static func connectedFeed(_ index: Int, rig: Rig) -> ControllerFeed {
        let feed = ControllerFeed(address: address(index))
        feed.linkChanged(connected: true, at: rig.clock.now)
        rig.server.attach(feed)
        return feed
    }

    /// What slot 1 shows a controller-info request now.
    static func slotOne(rig: Rig, client: TestDSUClient) -> TestDSUClient.Slot? {
        client.clear()
        client.requestInfo(slots: [1])
        rig.wait { !client.messages.isEmpty }
        guard case .info(let slot) = client.messages.first else { return nil }
        return slot
    }

    @Test func aFifthControllerIsNamedOnceAndGetsTheSlotOfOneThatLeaves() throws {
        let lines = Lines()
        let rig = try Rig(log: lines.sink)
        let feeds = (1...4).map { Self.connectedFeed($0, rig: rig) }
        let fifth = Self.connectedFeed(5, rig: rig)
        rig.server.attach(fifth)  // handed over again: no second line
        let noSlot = lines.lines.filter { $0.contains("\(Self.address(5)) has no DSU slot") }
        #expect(noSlot.count == 1)
        #expect(noSlot.first?.contains(Self.address(4)) == true)  // and who holds the slots

        let client = try rig.client()
        rig.subscribeConfirmed(client, flags: 1, slot: 1)
        #expect(Self.slotOne(rig: rig, client: client)?.mac == Self.mac(2))
        client.clear()
        DSUServerTests.send(DaydreamPacket(time: 1), to: fifth, at: rig.clock.now)
        rig.sync(client)
        #expect(client.dataMessages.isEmpty)  // no slot: its packets go nowhere

        // Controller 2 goes away: the fifth, connected, takes slot 1.
        feeds[1].linkChanged(connected: false, at: rig.clock.now)
        let taken = Self.slotOne(rig: rig, client: client)
        #expect(taken?.mac == Self.mac(5))
        #expect(taken?.state == 2)  // connected
        #expect(lines.lines.contains { $0.contains("\(Self.address(5)) takes DSU slot 1 from \(Self.address(2))") })
        client.clear()
        DSUServerTests.send(DaydreamPacket(time: 2), to: fifth, at: rig.clock.now)
        DSUServerTests.send(DaydreamPacket(time: 3), to: feeds[1], at: rig.clock.now)  // no longer slot 1's
        rig.sync(client)
        #expect(client.dataMessages.map(\.slot.mac) == [Self.mac(5)])

        // Controller 2 comes back and waits; once the fifth leaves, slot 1 is its again.
        feeds[1].linkChanged(connected: true, at: rig.clock.now)
        #expect(Self.slotOne(rig: rig, client: client)?.mac == Self.mac(5))
        fifth.linkChanged(connected: false, at: rig.clock.now)
        #expect(Self.slotOne(rig: rig, client: client)?.mac == Self.mac(2))
        #expect(feeds.allSatisfy { $0.consumerCount == 1 })
        #expect(fifth.consumerCount == 1)
    }
}
