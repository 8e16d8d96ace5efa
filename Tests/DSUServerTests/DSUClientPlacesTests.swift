import DSU
import DSUServer
import DaydreamCore
import DaydreamProtocol
import EventLoop
import Glibc
import Testing
import Timebase

/// Who holds the server's 16 places: a newcomer takes the stalest one when they are full, and
/// one address holds at most eight, so squatters cannot lock a real client out.
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

    @Test func sixteenSquattersRenewingEveryFewSecondsDoNotKeepOutARealClient() throws {
        let rig = try Rig()
        let feed = try rig.controller(DSUServerTests.addressA)
        let start = rig.clock.now
        // Sixteen squatters on addresses of their own, each renewing every 3 s, spread over the 3 s.
        let squatters = try (0..<16).map { index in
            Renewer(
                try rig.client(host: UInt8(2 + index)), first: start + .seconds(3.0 * Double(index) / 16), interval: .seconds(3))
        }
        // The real client comes at 4 s, once the squatters hold the 16 places, and renews every second.
        let real = Renewer(try rig.client(), first: start + .seconds(4), interval: .seconds(1))
        let readers = squatters.map(\.client) + [real.client]
        var packetsFromRenewal = 0
        DSUPeerProofTests.play(625, into: [feed], rig: rig, readers: readers) { _ in  // 10 s
            for squatter in squatters { squatter.renewIfDue(rig: rig) }
            real.renewIfDue(rig: rig)
            if rig.clock.now >= start + .seconds(5) { packetsFromRenewal += 1 }
        }
        // Nothing for its first request (28 bytes pay for no message), then every packet from its
        // first renewal on.
        #expect(packetsFromRenewal > 300)
        #expect(real.client.dataMessages.count == packetsFromRenewal)
        #expect(rig.server.clientCount == 16)
    }

    @Test func aNewcomerTakesTheStalestPlaceWhenAllSixteenAreHeld() throws {
        #expect(DSUServer.maximumClients == 16)
        let rig = try Rig()
        let held = try (0..<16).map { try rig.client(host: UInt8(2 + $0)) }
        for client in held {
            client.subscribe(flags: 0)
            rig.sync(client)
            rig.clock.advance(by: .milliseconds(100))
        }
        held[0].subscribe(flags: 0)  // renewed: now the freshest
        rig.sync(held[0])
        rig.clock.advance(by: .milliseconds(100))
        let newcomer = try rig.client(host: 18)
        newcomer.subscribe(flags: 0)
        rig.sync(newcomer)
        let peers = rig.server.status.clients.map(\.peer)
        #expect(rig.server.clientCount == 16)
        #expect(peers.contains("127.0.0.18:\(newcomer.port)"))
        #expect(peers.contains("127.0.0.2:\(held[0].port)"))
        #expect(!peers.contains("127.0.0.3:\(held[1].port)"))  // the stalest: asked 1.5 s ago
        #expect(rig.server.statistics.evictedClients == 1)
        #expect(rig.server.status.lines.first?.hasSuffix(", evicted 1") == true)
    }

    @Test func oneAddressHoldsAtMostEightPlaces() throws {
        #expect(DSUServer.maximumClientsPerAddress == 8)
        let rig = try Rig()
        // The stalest of all, from another address: a newcomer from 127.0.0.1 leaves it alone.
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
        #expect(!peers.contains("127.0.0.1:\(local[0].port)"))  // its address's stalest
        #expect(peers.contains("127.0.0.1:\(local[8].port)"))
        #expect(rig.server.statistics.evictedClients == 1)
    }
}
