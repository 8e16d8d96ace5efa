import DSU
import DSUServer
import DaydreamCore
import DaydreamProtocol
import EventLoop
import Glibc
import Testing
import Timebase

/// Who holds the server's 16 places: a client that renews on time keeps its own, a newcomer takes
/// the newest unconfirmed one or is refused, and one address holds at most eight.
@MainActor
@Suite struct DSUClientPlacesTests {
    typealias Rig = DSUServerTests.Rig

    /// A client that subscribes to every slot at `first` and renews every `interval`.
    @MainActor
    final class Renewer {
        let client: TestDSUClient
        let interval: TimeSpan
        var next: MonotonicTime

        init(_ client: TestDSUClient, first: MonotonicTime, interval: TimeSpan) {
            self.client = client
            self.interval = interval
            next = first
        }

        /// Asks (again) when its time has come.
        func renewIfDue(rig: Rig) {
            guard rig.clock.now >= next else { return }
            client.subscribe(flags: 0)
            rig.sync(client)
            next = next + interval
        }
    }

    /// The audit's squatters: sixteen clients renewing ten times a second, from addresses of their
    /// own or from the real client's, join a real client that renews each second, as Dolphin
    /// does. Before: it was the stalest, its place taken again and again, cut to one message a
    /// second. It keeps its place and every packet: 10 s of packets at 62.5 Hz.
    @Test(arguments: [false, true])
    func aRealClientKeepsEveryPacketBesideSixteenSquattersAtTenHertz(squattersShareItsAddress: Bool) throws {
        let rig = try Rig()
        let feed = try rig.controller(DSUServerTests.addressA)
        let start = rig.clock.now
        let real = Renewer(try rig.client(), first: start, interval: .seconds(1))
        // The squatters come once the real client is confirmed (its second request, at 1 s).
        let squatters = try (0..<16).map { index in
            Renewer(
                try rig.client(host: squattersShareItsAddress ? 1 : UInt8(2 + index)),
                first: start + .seconds(1.5 + Double(index) / 160), interval: .milliseconds(100))
        }
        var packetsFromConfirmation = 0
        DSUPeerProofTests.play(625, into: [feed], rig: rig, readers: squatters.map(\.client) + [real.client]) { _ in
            real.renewIfDue(rig: rig)
            for squatter in squatters { squatter.renewIfDue(rig: rig) }
            if rig.clock.now >= start + .seconds(1) { packetsFromConfirmation += 1 }
        }
        // Every packet from its confirmation on: 9 s at 62.5 a second.
        #expect(packetsFromConfirmation >= 560)
        #expect(real.client.dataMessages.count == packetsFromConfirmation)
        #expect(real.client.dataMessages.map(\.pad.counter) == Array((625 - packetsFromConfirmation + 1)...625).map(UInt32.init))
        // Sixteen places (eight from one address): the real client's, and the squatters', which
        // the ones left over take from each other.
        #expect(rig.server.clientCount == (squattersShareItsAddress ? 8 : 16))
        #expect(rig.server.statistics.evictedClients > 0)
        #expect(rig.server.status.clients.first?.peer == "127.0.0.1:\(real.client.port)")
    }

    /// Sixteen squatters renewing every 3 s hold the places, all confirmed: a real client is
    /// refused (answered nothing) until one of them stops asking, then takes its place.
    @Test func aNewcomerIsRefusedUntilAPlaceLapses() throws {
        let rig = try Rig()
        let feed = try rig.controller(DSUServerTests.addressA)
        let start = rig.clock.now
        let squatters = try (0..<16).map { index in
            Renewer(
                try rig.client(host: UInt8(2 + index)), first: start + .seconds(3.0 * Double(index) / 16), interval: .seconds(3))
        }
        // The real client comes at 7 s, renewing every second; the first squatter stops after 6 s.
        let real = Renewer(try rig.client(), first: start + .seconds(7), interval: .seconds(1))
        var packetsFromPlace = 0
        DSUPeerProofTests.play(800, into: [feed], rig: rig, readers: squatters.map(\.client) + [real.client]) { _ in
            for (index, squatter) in squatters.enumerated() where index > 0 || rig.clock.now < start + .seconds(6.5) {
                squatter.renewIfDue(rig: rig)
            }
            real.renewIfDue(rig: rig)
            // The first squatter asked last at 6 s: its place lapses at 10 s, the real client
            // takes it at its request at 10 s and is confirmed by the next, at 11 s.
            if rig.clock.now >= start + .seconds(11) { packetsFromPlace += 1 }
        }
        #expect(rig.server.statistics.refusedRequests == 3)  // at 7, 8 and 9 s
        #expect(packetsFromPlace > 100)
        #expect(real.client.dataMessages.count == packetsFromPlace)
        #expect(real.client.messages.count == packetsFromPlace)  // nothing before its place
        #expect(rig.server.clientCount == 16)
    }

    @Test func aNewcomerTakesTheNewestUnconfirmedPlaceWhenAllSixteenAreHeld() throws {
        #expect(DSUServer.maximumClients == 16)
        let rig = try Rig()
        let held = try (0..<16).map { try rig.client(host: UInt8(2 + $0)) }
        for client in held {
            client.subscribe(flags: 0)
            rig.sync(client)
            rig.clock.advance(by: .milliseconds(50))
        }
        let newcomer = try rig.client(host: 18)
        newcomer.subscribe(flags: 0)
        rig.sync(newcomer)
        var peers = rig.server.status.clients.map(\.peer)
        #expect(rig.server.clientCount == 16)
        #expect(peers.contains("127.0.0.18:\(newcomer.port)"))
        #expect(peers.contains("127.0.0.2:\(held[0].port)"))
        #expect(!peers.contains("127.0.0.17:\(held[15].port)"))  // the newest before it
        #expect(rig.server.statistics.evictedClients == 1)
        #expect(rig.server.status.lines.first?.hasSuffix(", evicted 1, refused 0") == true)

        // Once every place is held by a confirmed client, a newcomer is refused.
        rig.clock.advance(by: DSUServer.confirmationDelay)
        for client in held.dropLast() + [newcomer] { client.subscribe(flags: 0) }
        rig.sync()
        #expect(rig.server.status.clients.allSatisfy { $0.confirmed })
        let late = try rig.client(host: 19)
        late.subscribe(flags: 0)
        late.requestVersion()
        rig.sync()
        peers = rig.server.status.clients.map(\.peer)
        #expect(!peers.contains("127.0.0.19:\(late.port)"))
        #expect(late.messages.isEmpty)
        #expect(rig.server.statistics.refusedRequests == 2)
        #expect(rig.server.status.lines.first?.hasSuffix(", evicted 1, refused 2") == true)
    }

    @Test func oneAddressHoldsAtMostEightPlaces() throws {
        #expect(DSUServer.maximumClientsPerAddress == 8)
        let rig = try Rig()
        // The oldest of all, from another address: a newcomer from 127.0.0.1 leaves it alone.
        let other = try rig.client(host: 2)
        other.subscribe(flags: 0)
        rig.sync(other)
        rig.clock.advance(by: .milliseconds(100))
        let local = try (0..<9).map { _ in try rig.client() }
        for client in local {
            client.subscribe(flags: 0)
            rig.sync(client)
            rig.clock.advance(by: .milliseconds(100))
        }
        let peers = rig.server.status.clients.map(\.peer)
        #expect(rig.server.clientCount == 9)
        #expect(peers.filter { $0.hasPrefix("127.0.0.1:") }.count == 8)
        #expect(peers.contains("127.0.0.2:\(other.port)"))
        #expect(peers.contains("127.0.0.1:\(local[0].port)"))
        #expect(!peers.contains("127.0.0.1:\(local[7].port)"))  // its address's newest
        #expect(peers.contains("127.0.0.1:\(local[8].port)"))
        #expect(rig.server.statistics.evictedClients == 1)
    }
}
