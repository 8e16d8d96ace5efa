import DSU
import DSUServer
import DaydreamCore
import DaydreamProtocol
import EventLoop
import Glibc
import Testing
import Timebase

/// The server over loopback, against `TestDSUClient`.
@MainActor
@Suite struct DSUServerTests {
    static let addressA = "C0:DD:EE:00:00:0A"
    static let addressB = "C0:DD:EE:00:00:0B"
    static let macA: [UInt8] = [0xC0, 0xDD, 0xEE, 0x00, 0x00, 0x0A]
    static let macB: [UInt8] = [0xC0, 0xDD, 0xEE, 0x00, 0x00, 0x0B]

    /// A server on a free loopback port, timed by a manual clock, and a reactor for both ends.
    @MainActor
    final class Rig {
        let reactor: Reactor
        let clock = ManualScheduler(now: .seconds(100))
        let server: DSUServer
        /// Every datagram its clients sent, and the clients (not kept alive: a test may close one).
        let tally = DatagramTally()
        private var clients: [WeakClient] = []

        struct WeakClient {
            weak var client: TestDSUClient?
        }

        init(log: LogSink? = nil) throws {
            reactor = try Reactor()
            server = try DSUServer(
                listeningOn: DSUListenAddress(octets: [127, 0, 0, 1], port: 0), reactor: reactor, clock: clock, log: log)
        }

        /// A client on 127.0.0.`host`.
        func client(host: UInt8 = 1) throws -> TestDSUClient {
            let client = try TestDSUClient(reactor: reactor, serverPort: server.address.port, host: host)
            client.tally = tally
            clients.append(WeakClient(client: client))
            return client
        }

        /// A connected controller feeding the server.
        func controller(_ address: String) throws -> ControllerFeed {
            let feed = ControllerFeed(address: address)
            feed.attach(try #require(server.consumer(forController: address)))
            feed.linkChanged(connected: true, at: clock.now)
            return feed
        }

        @discardableResult
        func wait(_ condition: () -> Bool) -> Bool {
            reactor.run(until: condition, timeout: .seconds(5))
        }

        /// Subscribes `client` and renews once the confirmation delay has passed, as a real client
        /// does: from then on it is sent every message it subscribed to (while it keeps asking).
        func subscribeConfirmed(_ client: TestDSUClient, flags: UInt8, slot: UInt8 = 0, mac: [UInt8] = [0, 0, 0, 0, 0, 0]) {
            client.subscribe(flags: flags, slot: slot, mac: mac)
            sync(client)
            clock.advance(by: DSUServer.confirmationDelay)
            client.subscribe(flags: flags, slot: slot, mac: mac)
            sync(client)
        }

        /// Has `client` ask for the version twice, the confirmation delay apart (the clock moves
        /// on by that much): it is confirmed, answered in full from then on, and holds nothing
        /// it was sent before.
        func confirm(_ client: TestDSUClient) {
            client.requestVersion()
            sync(client)
            clock.advance(by: DSUServer.confirmationDelay)
            client.requestVersion()
            sync(client)
            client.clear()
        }

        /// Waits until the server has read every datagram the rig's clients sent, then has each
        /// client take what arrived: every reply and message sent so far (loopback delivers at once).
        func sync(_ client: TestDSUClient? = nil) {
            wait { server.statistics.received == tally.sent }
            for entry in clients { entry.client?.readAvailable() }
        }
    }

    static func send(_ packet: DaydreamPacket, to feed: ControllerFeed, at time: MonotonicTime) {
        packet.bytes.withUnsafeBytes { feed.receive($0, at: time) }
    }

    @Test func answersVersionAndControllerInfo() throws {
        let rig = try Rig()
        let feed = try rig.controller(Self.addressA)
        feed.batteryChanged(percent: 80, at: rig.clock.now)
        let client = try rig.client()
        rig.confirm(client)
        client.requestVersion()
        client.requestInfo(slots: [0, 1, 2, 3])
        #expect(rig.wait { client.messages.count == 5 })
        #expect(client.messages.first == .version(1001))
        let infos = client.messages.compactMap { if case .info(let slot) = $0 { slot } else { nil } }
        #expect(infos.map(\.slot) == [0, 1, 2, 3])
        // Slot 0: connected (2), full gyro (2), Bluetooth (2), the address as the MAC, battery high (4).
        #expect(infos[0] == TestDSUClient.Slot(slot: 0, state: 2, model: 2, connection: 2, mac: Self.macA, battery: 4))
        for empty in infos.dropFirst() {
            #expect(empty == TestDSUClient.Slot(slot: empty.slot, state: 0, model: 0, connection: 0, mac: [0, 0, 0, 0, 0, 0], battery: 0))
        }
        #expect(client.serverIDs == [rig.server.serverID])
        #expect(!client.messages.contains { if case .invalid = $0 { true } else { false } })
    }

    @Test func aSubscriberGetsEachPacketsValues() throws {
        let rig = try Rig()
        let feed = try rig.controller(Self.addressA)
        let client = try rig.client()
        rig.subscribeConfirmed(client, flags: 1, slot: 0)
        // Flat, finger at (128, 64), click and volume up held, turning: acc (0, 512, 0) counts is
        // 1.0002 g; gyro (40, -80, 20) counts at 2048/4095 deg/s.
        let packet = DaydreamPacket(
            time: 100, acceleration: RawVector(0, 512, 0), gyro: RawVector(40, -80, 20), touchX: 128, touchY: 64,
            buttons: [.click, .volumeUp])
        Self.send(packet, to: feed, at: .seconds(1))
        #expect(rig.wait { client.dataMessages.count == 1 })
        let (slot, pad) = try #require(client.dataMessages.first)
        #expect(slot.slot == 0 && slot.state == 2 && slot.mac == Self.macA)
        #expect(pad.active == 1 && pad.counter == 1)
        #expect(pad.buttons2 == 0x20 | 0x08)  // A and R1
        #expect(pad.analog[6] == 255 && pad.analog[8] == 255 && pad.analog[7] == 0)
        #expect(pad.touchButton == 1 && pad.home == 0)
        #expect(pad.sticks == [128, 128, 128, 128])
        #expect(pad.touch1.active == 1)
        #expect(pad.touch1.x == UInt16((128 * 1919 + 127) / 255) && pad.touch1.y == UInt16((64 * 941 + 127) / 255))
        let g = 8.0 / 4095.0
        let degrees = 2048.0 / 4095.0
        #expect(abs(Double(pad.accel[1]) + 512 * g) < 1e-5)
        #expect(pad.accel[0] == 0 && pad.accel[2] == 0)
        #expect(abs(Double(pad.gyro[0]) - 40 * degrees) < 1e-4)  // pitch = +x
        #expect(abs(Double(pad.gyro[1]) - 80 * degrees) < 1e-4)  // yaw = -y
        #expect(abs(Double(pad.gyro[2]) + 20 * degrees) < 1e-4)  // roll = -z
        // The next packet 16 ms on by the controller's clock: the counter and timestamp follow.
        Self.send(DaydreamPacket(time: 116), to: feed, at: .seconds(1.016))
        #expect(rig.wait { client.dataMessages.count == 2 })
        let next = client.dataMessages[1].pad
        #expect(next.counter == 2)
        #expect(next.timestamp - pad.timestamp == 16_000)
        #expect(next.buttons2 == 0 && next.touch1.active == 0)
    }

    @Test func subscriptionsByEverySlotAndByMAC() throws {
        let rig = try Rig()
        let feedA = try rig.controller(Self.addressA)
        let feedB = try rig.controller(Self.addressB)
        let all = try rig.client()
        let byMAC = try rig.client()
        rig.subscribeConfirmed(all, flags: 0)
        rig.subscribeConfirmed(byMAC, flags: 2, mac: Self.macB)
        Self.send(DaydreamPacket(time: 1), to: feedA, at: .seconds(1))
        Self.send(DaydreamPacket(time: 2), to: feedB, at: .seconds(1))
        #expect(rig.wait { all.dataMessages.count == 2 && byMAC.dataMessages.count == 1 })
        #expect(all.dataMessages.map(\.slot.slot) == [0, 1])
        #expect(byMAC.dataMessages.map(\.slot.mac) == [Self.macB])
        #expect(byMAC.dataMessages.first?.slot.slot == 1)
    }

    @Test func aSubscriptionLapsesFourSecondsAfterItsLastRequest() throws {
        let rig = try Rig()
        let feed = try rig.controller(Self.addressA)
        let lapsing = try rig.client()
        let renewing = try rig.client()
        lapsing.subscribe(flags: 1, slot: 0)
        renewing.subscribe(flags: 0)
        rig.sync()
        rig.clock.advance(by: DSUServer.confirmationDelay)
        lapsing.subscribe(flags: 1, slot: 0)
        renewing.subscribe(flags: 0)
        rig.sync()
        #expect(rig.server.clientCount == 2)
        #expect(rig.server.status.clients.map(\.confirmed) == [true, true])

        rig.clock.advance(by: .seconds(3.9))
        Self.send(DaydreamPacket(time: 1), to: feed, at: rig.clock.now)
        rig.sync()
        #expect(lapsing.dataMessages.count == 1 && renewing.dataMessages.count == 1)

        renewing.subscribe(flags: 0)
        rig.sync()
        rig.clock.advance(by: .seconds(0.2))  // 4.1 s after the lapsing one's request
        Self.send(DaydreamPacket(time: 2), to: feed, at: rig.clock.now)
        rig.sync()
        #expect(renewing.dataMessages.count == 2)
        #expect(lapsing.dataMessages.count == 1)
        #expect(rig.server.clientCount == 1)

        // Asking again subscribes again, as a newcomer: unconfirmed, and its 28 bytes do not pay
        // for a 100-byte message.
        lapsing.subscribe(flags: 1, slot: 0)
        rig.sync()
        #expect(rig.server.status.clients.map(\.confirmed) == [true, false])
        Self.send(DaydreamPacket(time: 3), to: feed, at: rig.clock.now)
        rig.sync()
        #expect(renewing.dataMessages.count == 3)
        #expect(lapsing.dataMessages.count == 1)
    }

    @Test func theStatusNamesEachClientWhatItWantsAndWhenItAsked() throws {
        let rig = try Rig()
        #expect(rig.server.status.lines == ["127.0.0.1:\(rig.server.address.port): 0 clients, dropped none, evicted 0, refused 0"])
        let first = try rig.client()
        let second = try rig.client()
        first.subscribe(flags: 0)
        rig.sync(first)
        rig.clock.advance(by: .seconds(1))
        first.subscribe(flags: 1, slot: 2)  // a renewal 1 s on: confirmed
        rig.sync(first)
        rig.clock.advance(by: .seconds(0.5))
        second.subscribe(flags: 2, mac: Self.macB)
        first.sendRaw([1, 2, 3])  // short
        rig.sync(first)
        rig.sync(second)
        rig.clock.advance(by: .seconds(0.25))
        let status = rig.server.status
        #expect(status.address == rig.server.address)
        #expect(status.clients == [
            DSUServerStatus.Client(
                peer: "127.0.0.1:\(first.port)", subscriptions: [.allSlots, .slot(2)], secondsSinceLastRequest: 0.75, confirmed: true),
            DSUServerStatus.Client(
                peer: "127.0.0.1:\(second.port)", subscriptions: [.mac(DSUMACAddress(bytes: Self.macB))], secondsSinceLastRequest: 0.25,
                confirmed: false),
        ])
        #expect(status.dropped[.short] == 1)
        #expect(status.lines == [
            "127.0.0.1:\(rig.server.address.port): 2 clients, dropped short=1, evicted 0, refused 0",
            "client 127.0.0.1:\(first.port): all slots, slot 2; last request 0.8 s ago",
            "client 127.0.0.1:\(second.port): mac C0:DD:EE:00:00:0B; last request 0.3 s ago; unconfirmed",
        ])
        // A lapsed subscription is no longer shown (the first client's all slots at 4 s, slot 2 at
        // 5 s); the other client's (5.5 s) still is.
        rig.clock.advance(by: .seconds(2.5))
        #expect(rig.server.status.clients.map(\.subscriptions) == [[.slot(2)], [.mac(DSUMACAddress(bytes: Self.macB))]])
        rig.clock.advance(by: .seconds(1.15))
        #expect(rig.server.status.clients.map(\.peer) == ["127.0.0.1:\(second.port)"])
    }

    @Test func aControllerThatDropsKeepsItsSlotShownDisconnected() throws {
        let rig = try Rig()
        let feedA = try rig.controller(Self.addressA)
        let feedB = try rig.controller(Self.addressB)
        let client = try rig.client()
        rig.subscribeConfirmed(client, flags: 0)

        feedA.linkChanged(connected: false, at: rig.clock.now)
        client.requestInfo(slots: [0, 1])
        #expect(rig.wait { client.messages.filter { if case .info = $0 { true } else { false } }.count == 2 })
        let away = client.messages.compactMap { if case .info(let slot) = $0 { slot } else { nil } }
        #expect(away[0].state == 0 && away[0].mac == Self.macA)  // disconnected, still its MAC
        #expect(away[1].state == 2 && away[1].mac == Self.macB)

        // Back, over a new feed (a new bus connection makes new feeds): the same slot.
        client.clear()
        let again = ControllerFeed(address: Self.addressA)
        again.attach(try #require(rig.server.consumer(forController: Self.addressA)))
        again.linkChanged(connected: true, at: rig.clock.now)
        client.requestInfo(slots: [0])
        #expect(rig.wait { !client.messages.isEmpty })
        #expect(client.messages.first == .info(TestDSUClient.Slot(slot: 0, state: 2, model: 2, connection: 2, mac: Self.macA, battery: 0)))
        Self.send(DaydreamPacket(time: 5), to: again, at: rig.clock.now)
        Self.send(DaydreamPacket(time: 6), to: feedB, at: rig.clock.now)
        #expect(rig.wait { client.dataMessages.count == 2 })
        #expect(client.dataMessages.map(\.slot.slot) == [0, 1])
        #expect(client.dataMessages.map(\.slot.mac) == [Self.macA, Self.macB])
    }

    /// With DSU on, the slot is one more consumer of the feed: it gets the packet the feed
    /// decoded for every consumer (its `receive` takes a `DaydreamPacket`, not bytes), and what is
    /// not a packet is counted once, by the feed, and sent to no client.
    @Test func theSlotSharesTheFeedsOneDecode() throws {
        @MainActor final class Other: ControllerConsumer {
            var packets: [DaydreamPacket] = []
            func receive(_ packet: DaydreamPacket, at time: MonotonicTime) { packets.append(packet) }
            func linkChanged(connected: Bool, at time: MonotonicTime) {}
        }
        let rig = try Rig()
        let feed = try rig.controller(Self.addressA)
        let other = Other()
        feed.attach(other)
        let client = try rig.client()
        rig.subscribeConfirmed(client, flags: 1, slot: 0)
        let packet = DaydreamPacket(time: 40, sequence: 3, touchX: 200, touchY: 9, buttons: .app)
        Self.send(packet, to: feed, at: .seconds(1))
        #expect(rig.wait { client.dataMessages.count == 1 })
        #expect(client.dataMessages.first?.pad.buttons2 == 0x40, "app is B")
        #expect(other.packets == [packet])
        #expect(feed.statistics.received == 1)
        let short = Array(packet.bytes.prefix(19))
        short.withUnsafeBytes { feed.receive($0, at: .seconds(1.01)) }
        rig.sync(client)
        #expect(feed.statistics.malformed == 1)
        #expect(client.dataMessages.count == 1)
        #expect(other.packets.count == 1)
    }

    /// A feed may outlive the server (the daemon stops it first): its slot's consumer then
    /// does nothing with what the feed still hands it.
    @Test func aFeedThatOutlivesTheServerFeedsNothing() throws {
        var rig: Rig? = try Rig()
        let feed = try #require(try rig?.controller(Self.addressA))
        weak let server = rig?.server
        rig = nil
        #expect(server == nil, "nothing else holds the server")
        #expect(feed.consumerCount == 1)
        Self.send(DaydreamPacket(buttons: .click), to: feed, at: .seconds(1))
        feed.batteryChanged(percent: 50, at: .seconds(1))
        feed.linkChanged(connected: false, at: .seconds(1))
        #expect(feed.statistics.received == 1)
    }

    @Test func attachingAFeedTakesItsStateOnce() throws {
        let rig = try Rig()
        let feed = ControllerFeed(address: Self.addressA.lowercased())
        feed.linkChanged(connected: true, at: rig.clock.now)
        feed.batteryChanged(percent: 15, at: rig.clock.now)
        rig.server.attach(feed)
        rig.server.attach(feed)  // a reconnection hands the daemon the same feed again
        #expect(feed.consumerCount == 1)
        let client = try rig.client()
        rig.confirm(client)
        client.requestInfo(slots: [0])
        #expect(rig.wait { !client.messages.isEmpty })
        // Connected and battery low (2), read from the feed as it was when attached.
        #expect(client.messages.first == .info(TestDSUClient.Slot(slot: 0, state: 2, model: 2, connection: 2, mac: Self.macA, battery: 2)))
    }

    @Test func aFifthControllerGetsNoSlot() throws {
        let rig = try Rig()
        for index in 1...4 { _ = try rig.controller("C0:DD:EE:00:00:0\(index)") }
        #expect(rig.server.consumer(forController: "C0:DD:EE:00:00:05") == nil)
        #expect(rig.server.consumer(forController: "C0:DD:EE:00:00:02") != nil)
    }

    @Test func badDatagramsAreCountedAndDropped() throws {
        let rig = try Rig()
        let client = try rig.client()
        let good = client.message(type: 0x10_0000, payload: [])
        client.sendRaw(Array(good.prefix(12)))  // short
        client.sendRaw(good + [UInt8](repeating: 0, count: 200))  // oversized
        var magic = good
        magic[3] = UInt8(ascii: "S")
        client.sendRaw(magic)  // "DSUS": a server's
        var version = good
        version[4] = 0xEA  // 1002 (and so a wrong CRC too: the version is checked first)
        client.sendRaw(version)
        var crc = good
        crc[10] ^= 0xFF
        client.sendRaw(crc)
        client.sendRaw(client.message(type: 0x10_0002, payload: [1, 9, 0, 0, 0, 0, 0, 0]))  // slot 9
        rig.sync(client)
        let dropped = rig.server.statistics.dropped
        #expect(dropped[.short] == 1)
        #expect(dropped[.oversized] == 1)
        #expect(dropped[.wrongMagic] == 1)
        #expect(dropped[.wrongVersion] == 1)
        #expect(dropped[.badChecksum] == 1)
        #expect(dropped[.badPayload] == 1)
        #expect(dropped.total == 6)
        // Nothing came back.
        #expect(client.messages.isEmpty)
    }

    @Test func oneTurnReadsAtMostThirtyTwoDatagrams() throws {
        // A flood waits in the socket's queue: one turn of the loop handles 32 of its datagrams
        // and returns, so the controllers' packets (read in the same turns) are not held up.
        let rig = try Rig()
        let client = try rig.client()
        let bad = Array(client.message(type: 0x10_0000, payload: []).prefix(12))
        for _ in 0..<100 { client.sendRaw(bad) }
        rig.reactor.runOnce(timeout: .seconds(1))
        #expect(rig.server.statistics.dropped[.short] == 32)
        #expect(rig.wait { rig.server.statistics.dropped[.short] == 100 })
    }

    @Test func aPortInUseSaysSo() throws {
        let rig = try Rig()
        let taken = DSUListenAddress(octets: [127, 0, 0, 1], port: rig.server.address.port)
        do {
            _ = try DSUServer(listeningOn: taken, reactor: rig.reactor)
            Issue.record("a second server bound \(taken)")
        } catch {
            #expect(error.code == EADDRINUSE)
            #expect(error.description == "\(taken) is in use (another DSU server, or another daydream-bridge?)")
        }
    }
}
