import BlueZ
import DBus
import EventLoop
import Foundation
import TestSupport
import Testing
import Timebase

@MainActor
@Suite(.requires(TestEnvironment.canRunDBusTests, "needs dbus-daemon, python3-dbus, python3-gi"))
struct ObjectCacheTests {
    @Test func theCacheFollowsAddsRemovesChangesAndRestarts() throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let reactor = try Reactor()
        let fake = try FakeBlueZ(busAddress: bus.address, reactor: reactor)
        defer { fake.stop() }
        try fake.command("add_adapter", ["name": "hci0", "address": "00:AA:01:00:00:01"])
        try fake.command("add_device", ["address": "C0:DD:EE:00:00:01", "name": "Daydream controller"])
        let client = BlueZClient(connection: try BusConnection(address: bus.address, reactor: reactor))
        var events: [BlueZClient.Event] = []
        let token = client.observe { events.append($0) }
        defer { token.cancel() }
        client.start()
        #expect(reactor.run(until: { client.isReady }, timeout: .seconds(5)))
        #expect(client.cache.adapters.map(\.name) == ["hci0"])
        let first = try #require(client.cache.device(address: "C0:DD:EE:00:00:01"))
        #expect(first.isDaydreamController)
        #expect(first.rssi == -50)

        try fake.command("add_device", ["address": "AA:00:00:00:00:02", "name": "Some speaker"])
        #expect(reactor.run(until: { client.cache.device(address: "AA:00:00:00:00:02") != nil }, timeout: .seconds(5)))
        #expect(client.cache.device(address: "AA:00:00:00:00:02")?.isDaydreamController == false)

        try fake.command("set_property", ["path": first.path, "interface": "org.bluez.Device1", "name": "RSSI",
                                          "value": -70, "type": "n"])
        #expect(reactor.run(until: { client.cache.device(address: "C0:DD:EE:00:00:01")?.rssi == -70 }, timeout: .seconds(5)))
        #expect(events.contains(.propertiesChanged(path: first.path, interface: "org.bluez.Device1", names: ["RSSI"])))

        try fake.command("remove_device", ["address": "AA:00:00:00:00:02"])
        #expect(reactor.run(until: { client.cache.device(address: "AA:00:00:00:00:02") == nil }, timeout: .seconds(5)))

        // bluetoothd stops: the cache empties; it returns: the cache is rebuilt.
        events.removeAll()
        try fake.command("stop")
        #expect(reactor.run(until: { !client.isReady }, timeout: .seconds(5)))
        #expect(client.cache.objects.isEmpty)
        try fake.command("start")
        #expect(reactor.run(until: { client.isReady }, timeout: .seconds(5)))
        #expect(events.first == .serviceVanished)
        #expect(events.contains(.serviceAppeared))
        #expect(client.cache.adapters.count == 1)
        // An unpaired device is temporary: bluetoothd forgets it when it stops.
        #expect(client.cache.device(address: "C0:DD:EE:00:00:01") == nil)
    }

    /// One GetManagedObjects that got no reply was never asked again: the bridge stayed blind
    /// to BlueZ. A service that owns the name but leaves the first call unanswered is asked
    /// again after the call times out, and the cache loads from its answer.
    @Test func anUnansweredGetManagedObjectsIsAskedAgain() throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let reactor = try Reactor()
        let service = try BusConnection(address: bus.address, reactor: reactor)
        var asked = 0
        service.export(path: "/") { message in
            guard message.member == "GetManagedObjects" else { return nil }
            asked += 1
            if asked == 1 { return nil }
            let adapter = DBusValue.dictionary(key: "s", value: "a{sv}", [
                (.string("org.bluez.Adapter1"), .properties(["Address": .string("00:AA:01:00:00:01")])),
            ])
            return .success([.dictionary(key: "o", value: "a{sa{sv}}", [(.objectPath("/org/bluez/hci0"), adapter)])])
        }
        var owned = false
        service.requestName("org.bluez.silent") { owned = (try? $0.get()) == .primaryOwner }
        #expect(reactor.run(until: { owned }, timeout: .seconds(5)))
        let retry = BlueZClient.LoadRetry(timeout: .milliseconds(100), firstDelay: .milliseconds(50), maximumDelay: .milliseconds(200))
        let client = BlueZClient(connection: try BusConnection(address: bus.address, reactor: reactor),
                                 serviceName: "org.bluez.silent", loadRetry: retry)
        client.start()
        #expect(reactor.run(until: { client.isReady }, timeout: .seconds(5)))
        #expect(asked == 2)
        #expect(client.cache.adapters.map(\.path) == ["/org/bluez/hci0"])
    }

    @Test func aMissingBluetoothdIsReportedAndAwaited() throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let reactor = try Reactor()
        let client = BlueZClient(connection: try BusConnection(address: bus.address, reactor: reactor))
        var events: [BlueZClient.Event] = []
        let token = client.observe { events.append($0) }
        defer { token.cancel() }
        client.start()
        #expect(reactor.run(until: { events == [.serviceVanished] }, timeout: .seconds(5)))
        #expect(!client.isReady)
        let fake = try FakeBlueZ(busAddress: bus.address, reactor: reactor)
        defer { fake.stop() }
        #expect(reactor.run(until: { client.isReady }, timeout: .seconds(5)))
        #expect(events.last == .serviceAppeared)
    }
}
