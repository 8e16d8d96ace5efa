import BlueZ
import DaydreamProtocol
@testable import DaydreamCore
import EventLoop
import TestSupport
import Testing
import Timebase

/// Writes down what one consumer of a feed hears.
@MainActor
final class HeardByConsumer: ControllerConsumer {
    var packets: [[UInt8]] = []
    var links: [Bool] = []
    var batteries: [Int] = []

    func receive(_ packet: DaydreamPacket, at time: MonotonicTime) { packets.append(packet.bytes) }
    func linkChanged(connected: Bool, at time: MonotonicTime) { links.append(connected) }
    func batteryChanged(percent: Int, at time: MonotonicTime) { batteries.append(percent) }
}

/// A manager without models, as the daemon runs it: feeds only, any number of consumers on each.
@MainActor
@Suite(.serialized, .requires(TestEnvironment.canRunDBusTests, "needs dbus-daemon, python3-dbus, python3-gi"))
struct FeedConsumerTests {
    typealias Rig = ManagerRig

    @Test func everyConsumerHearsPacketsBatteryAndLinkChangesAndNoModelRuns() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first, ["battery_notify": false])]) { $0.makesControllerModels = false }
        defer { rig.stop() }
        let first = HeardByConsumer()
        let second = HeardByConsumer()
        var connects = 0
        rig.manager.feedConnected = { feed in
            connects += 1
            feed.attach(first)
            feed.attach(second)
        }
        rig.manager.start()
        try rig.wait("the connect") { rig.manager.feed(address: Rig.first)?.isConnected == true }
        let feed = try #require(rig.manager.feed(address: Rig.first))
        #expect(rig.manager.controller(address: Rig.first) == nil)
        #expect(rig.manager.knownControllers.isEmpty)
        #expect(rig.events.isEmpty, "no model, so no controller handler: \(rig.events)")
        #expect(feed.consumerCount == 2)

        // A held button on the daemon's path sets no timer: there is no model to time a long press.
        try rig.wait("the first battery reading") { feed.batteryPercent != nil }
        try rig.sync()
        let timers = rig.reactor.pendingTimerCount
        try rig.send(Rig.first, Rig.volumeUpPacket)
        try rig.wait("the packet") { first.packets.count == 1 && second.packets.count == 1 }
        #expect(first.packets == [Hex.decode(Rig.volumeUpPacket) ?? []])
        #expect(second.packets == first.packets)
        #expect(rig.reactor.pendingTimerCount == timers)

        // A battery read on demand reaches both.
        try rig.fake.command("set_battery", ["address": Rig.first, "percent": 12])
        feed.readBattery()
        try rig.wait("the read level") { first.batteries.last == 12 && second.batteries.last == 12 }

        // Out of range and back: both hear the disconnect and the reconnect, on the same feed.
        try rig.fake.command("drop", ["address": Rig.first, "present": false])
        try rig.wait("the disconnect") { first.links == [false] && second.links == [false] }
        try rig.fake.command("configure", ["address": Rig.first, "present": true])
        try rig.fake.command("set_property", ["path": "/org/bluez/hci0/dev_C0_DD_EE_00_00_01", "interface": "org.bluez.Device1",
                                              "name": "RSSI", "value": -40, "type": "n"])
        try rig.wait("the reconnect") { first.links == [false, true] && second.links == [false, true] }
        #expect(rig.manager.feed(address: Rig.first) === feed)
        #expect(connects == 2)
        #expect(feed.consumerCount == 2)
    }
}
