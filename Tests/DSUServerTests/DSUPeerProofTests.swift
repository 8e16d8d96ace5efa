import DSU
import DSUServer
import DaydreamCore
import DaydreamProtocol
import EventLoop
import Glibc
import Testing
import Timebase

/// What a peer is sent before and after it has shown it is a real client: no more bytes than it
/// sent, whatever a request with a forged source asks for, and the full stream for clients that
/// ask as Dolphin, Citra and yuzu, and Cemu do.
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

    static let addressA = DSUServerTests.addressA

    /// The audit's reflection: a source that is not the client (forged; here a socket that only
    /// counts what arrives, as an open port of a victim would) asks for every slot twice, 0.6 s
    /// apart, then, in the second case, again every 4.5 s; four controllers stream for 20 s.
    /// Before: 251 datagrams (25.1 kB) in 7 s for the two requests (x448); x628 renewed.
    @Test(arguments: [nil, 4.5] as [Double?])
    func aForgedSourceIsSentNoMoreBytesThanItSent(renewal: Double?) throws {
        let rig = try Rig()
        let feeds = try (1...4).map { try rig.controller("C0:DD:EE:00:00:0\($0)") }
        let victim = try rig.client(host: 9)
        let start = rig.clock.now
        var requests = [start, start + .seconds(0.6)]
        if let renewal {
            requests += (1...4).map { start + .seconds(0.6 + renewal * Double($0)) }
        }
        Self.play(1250, into: feeds, rig: rig, readers: [victim]) { _ in
            while let due = requests.first, rig.clock.now >= due {
                requests.removeFirst()
                victim.subscribe(flags: 0)
                rig.sync()
            }
        }
        #expect(requests.isEmpty)
        #expect(victim.sentBytes == 28 * (renewal == nil ? 2 : 6))
        #expect(victim.receivedBytes <= victim.sentBytes, "amplification x\(Double(victim.receivedBytes) / Double(victim.sentBytes))")
        #expect(victim.dataMessages.isEmpty)
        #expect(rig.server.statistics.withheld > 0)
    }

    /// An unconfirmed peer's replies stop where its own bytes do: a version request (20 bytes)
    /// does not pay for its reply (24); with a 4-slot information request (28) after it, one
    /// information reply (32) is paid; another version request then pays for its reply.
    @Test func anUnconfirmedPeerIsAnsweredAsFarAsItsOwnBytesGo() throws {
        let rig = try Rig()
        _ = try rig.controller(Self.addressA)
        let client = try rig.client()
        client.requestVersion()
        client.requestInfo(slots: [0, 1, 2, 3])
        client.requestVersion()
        rig.sync()
        #expect(client.messages.count == 2)
        #expect(client.messages.last == .version(1001))
        if case .info(let slot) = client.messages.first { #expect(slot.slot == 0) } else { Issue.record("\(client.messages)") }
        #expect(client.receivedBytes == 32 + 24)
        #expect(client.sentBytes == 20 + 28 + 20)
        #expect(rig.server.statistics.withheld == 1 + 3)
    }

    /// A client that renews every `interval`, as Dolphin (1 s) and Citra and yuzu (3 s) do, is
    /// confirmed by its renewal at `interval` (1 s or more after its first request) and from
    /// then on sent every packet; before, nothing (28 bytes pay for no message): 6 s of packets.
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
                rig.sync()
                nextRenewal = nextRenewal + .seconds(interval)
            }
            if rig.clock.now >= start + .seconds(interval) { packetsFromRenewal += 1 }
        }
        #expect(packetsFromRenewal > 150)
        let counters = client.dataMessages.map(\.pad.counter)
        #expect(counters == Array((375 - packetsFromRenewal + 1)...375).map(UInt32.init))
        #expect(rig.server.status.clients.map(\.confirmed) == [true])
    }

    /// A client that asks for the version, then for data, then again on each message it
    /// receives, as Cemu does: the information messages it is pinged with every 0.5 s keep it
    /// asking, within its own bytes, until its requests have run 1 s; then it is sent every packet.
    @Test func aClientRenewingOnEachMessageIsConfirmedThroughPingsThenGetsEveryOne() throws {
        let rig = try Rig()
        let feed = try rig.controller(Self.addressA)
        let client = try rig.client()
        client.requestVersion()
        client.subscribe(flags: 1, slot: 0)
        rig.sync()
        var answered = 0
        var bytesBeforeData: (sent: Int, received: Int)?
        for tick in 0..<250 {  // 4 s
            if tick > 0 { rig.clock.advance(by: Self.packetInterval) }
            DSUServerTests.send(DaydreamPacket(time: UInt16(tick * 16 % 512)), to: feed, at: rig.clock.now)
            rig.sync()
            if bytesBeforeData == nil, !client.dataMessages.isEmpty {
                bytesBeforeData = (client.sentBytes, client.receivedBytes - 100)
            }
            // One request for each message received (information or data), naming its slot.
            while answered < client.messages.count {
                answered += 1
                client.subscribe(flags: 1, slot: 0)
            }
            rig.sync()
        }
        let pings = client.messages.filter { if case .info = $0 { true } else { false } }.count
        #expect(pings == 3)  // at 0, 0.5 and 1 s
        let before = try #require(bytesBeforeData)
        #expect(before.received <= before.sent)
        let counters = client.dataMessages.map(\.pad.counter)
        #expect(counters.count > 180)
        #expect(counters == Array((250 - counters.count + 1)...250).map(UInt32.init))
        #expect(rig.server.status.clients.map(\.confirmed) == [true])
    }

    /// A peer whose port has no socket (a forged address, a client that closed) is forgotten on
    /// the first ICMP port-unreachable; the client sent next is not hurt by the error.
    @Test func anUnreachablePeerIsForgottenAndOthersStillServed() throws {
        let rig = try Rig()
        let feed = try rig.controller(Self.addressA)
        var gone: TestDSUClient? = try rig.client()
        let live = try rig.client()
        gone?.subscribe(flags: 0)
        live.subscribe(flags: 0)
        rig.sync()
        rig.clock.advance(by: DSUServer.confirmationDelay)
        gone?.subscribe(flags: 0)
        live.subscribe(flags: 0)
        rig.sync()
        #expect(rig.server.status.clients.map(\.confirmed) == [true, true])
        gone = nil  // its socket closes: the kernel answers its datagrams with port unreachable
        DSUServerTests.send(DaydreamPacket(time: 1), to: feed, at: rig.clock.now)
        #expect(rig.wait { live.dataMessages.count == 1 })
        #expect(rig.wait { rig.server.clientCount == 1 })
        #expect(rig.server.status.clients.map(\.peer) == ["127.0.0.1:\(live.port)"])
        #expect(rig.server.statistics.sendFailures == 0)
    }
}
