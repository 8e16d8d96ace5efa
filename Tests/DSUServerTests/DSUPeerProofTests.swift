import DSU
import DSUServer
import DaydreamCore
import DaydreamProtocol
import EventLoop
import Glibc
import Testing
import Timebase

/// What a peer is sent before and after it has shown it is a real client: the bound on what a
/// request with a forged source can draw, and the full stream for clients that renew as Dolphin,
/// Citra and Cemu do.
@MainActor
@Suite struct DSUPeerProofTests {
    typealias Rig = DSUServerTests.Rig
    /// A packet every 16 ms: the controller's rate, about 60 Hz.
    static let packetInterval = TimeSpan.milliseconds(16)

    /// `count` packets, one every 16 ms from the clock's time on, into each of `feeds`; before
    /// each, `before` runs (a client's renewals), and after each every client in `readers` takes
    /// what has arrived, so no socket's buffer fills.
    static func play(
        _ count: Int, into feeds: [ControllerFeed], rig: Rig, readers: [TestDSUClient], before: (Int) -> Void = { _ in }
    ) {
        for tick in 0..<count {
            if tick > 0 { rig.clock.advance(by: packetInterval) }
            before(tick)
            for feed in feeds {
                DSUServerTests.send(DaydreamPacket(time: UInt16(tick * 16 % 512)), to: feed, at: rig.clock.now)
            }
            for reader in readers { reader.readAvailable() }
        }
        // The version answer comes after every data message sent before it.
        for reader in readers { rig.sync(reader) }
    }

    @Test func oneRequestDrawsOneDatagramWhateverTheControllers() throws {
        // Before: 300 data messages a controller over the subscription's 5 s, 1 200 with four.
        let rig = try Rig()
        let feeds = try (1...4).map { try rig.controller("C0:DD:EE:00:00:0\($0)") }
        let once = try rig.client()
        once.subscribe(flags: 0)  // every slot
        rig.sync(once)
        Self.play(300, into: feeds, rig: rig, readers: [once])  // 4.8 s, within the 5 s
        #expect(once.dataMessages.count == 1)
        #expect(rig.server.statistics.sent == 1 + 2)  // and the two version answers
        #expect(rig.server.statistics.withheld == 4 * 300 - 1)
        #expect(rig.server.status.clients.map(\.confirmed) == [false])
    }

    @Test func eachRequestBuysOneDatagramBankedUpToFour() throws {
        let rig = try Rig()
        let feed = try rig.controller(Self.addressA)
        let client = try rig.client()
        for _ in 0..<3 { client.subscribe(flags: 1, slot: 0) }
        rig.sync(client)
        Self.play(20, into: [feed], rig: rig, readers: [client])  // 0.3 s
        #expect(client.dataMessages.count == 3)
        client.clear()
        for _ in 0..<6 { client.subscribe(flags: 1, slot: 0) }  // still short of the confirmation delay
        rig.sync(client)
        Self.play(5, into: [feed], rig: rig, readers: [client])
        #expect(client.dataMessages.count == 4)
    }

    static let addressA = DSUServerTests.addressA

    /// A client that renews every `interval`, as Dolphin (1 s) and Citra (3 s) do, is sent one
    /// message until its first renewal, then every one: 6 s of packets.
    @Test(arguments: [1.0, 3.0])
    func aClientRenewingOnATimerGetsTheFullStreamFromItsFirstRenewal(interval: Double) throws {
        let rig = try Rig()
        let feed = try rig.controller(Self.addressA)
        let client = try rig.client()
        let start = rig.clock.now
        var nextRenewal = start
        var packetsFromRenewal = 0
        Self.play(375, into: [feed], rig: rig, readers: [client]) { _ in
            if rig.clock.now >= nextRenewal {
                client.subscribe(flags: 1, slot: 0)
                rig.sync(client)
                nextRenewal = nextRenewal + .seconds(interval)
            }
            if rig.clock.now >= start + .seconds(interval) { packetsFromRenewal += 1 }
        }
        #expect(packetsFromRenewal > 150)
        #expect(client.dataMessages.count == 1 + packetsFromRenewal)
        let counters = client.dataMessages.map(\.pad.counter)
        #expect(Array(counters.dropFirst()) == Array((375 - packetsFromRenewal + 1)...375).map(UInt32.init))
    }

    /// A client that asks again on each message it receives, as Cemu does, is never cut off.
    @Test func aClientRenewingOnEachMessageGetsEveryOne() throws {
        let rig = try Rig()
        let feed = try rig.controller(Self.addressA)
        let client = try rig.client()
        client.subscribe(flags: 1, slot: 0)
        rig.sync(client)
        for tick in 0..<120 {
            if tick > 0 { rig.clock.advance(by: Self.packetInterval) }
            DSUServerTests.send(DaydreamPacket(time: UInt16(tick * 16 % 512)), to: feed, at: rig.clock.now)
            guard rig.wait({ client.dataMessages.count == tick + 1 }) else {
                Issue.record("packet \(tick + 1) never came")
                break
            }
            client.subscribe(flags: 1, slot: 0)
            rig.sync(client)
        }
        #expect(client.dataMessages.map(\.pad.counter) == (1...120).map(UInt32.init))
    }

    /// A peer whose port has no socket (a forged address, a client that closed) is forgotten on
    /// the first ICMP port-unreachable; the client sent next is not hurt by the error.
    @Test func anUnreachablePeerIsForgottenAndOthersStillServed() throws {
        let rig = try Rig()
        let feed = try rig.controller(Self.addressA)
        var gone: TestDSUClient? = try rig.client()
        let live = try rig.client()
        gone?.subscribe(flags: 0)
        if let gone { rig.sync(gone) }
        live.subscribe(flags: 0)
        rig.sync(live)
        #expect(rig.server.clientCount == 2)
        gone = nil  // its socket closes: the kernel answers its datagrams with port unreachable
        DSUServerTests.send(DaydreamPacket(time: 1), to: feed, at: rig.clock.now)
        #expect(rig.wait { live.dataMessages.count == 1 })
        #expect(rig.wait { rig.server.clientCount == 1 })
        #expect(rig.server.status.clients.map(\.peer) == ["127.0.0.1:\(live.port)"])
        #expect(rig.server.statistics.sendFailures == 0)
    }
}
