import BlueZ
@testable import Daydream
import EventLoop
import Foundation
import TestSupport
import Testing
import Timebase

/// The iOS-shaped static API: `startDaydreamControllerDiscovery()`,
/// `DDController.controllers` and the notifications. Its loop is driven here by
/// hand; in a program the main dispatch queue drives it.
@MainActor
@Suite(.serialized, .requires(TestEnvironment.canRunDBusTests, "needs dbus-daemon, python3-dbus, python3-gi"))
struct LibraryAPITests {
    @Test func discoveryConnectsPairedControllersPairsNoneAndPostsNotifications() throws {
        let bus = try TestBus()
        defer { bus.stop() }
        LibraryRuntime.shared.busAddressOverride = bus.address
        defer { LibraryRuntime.shared.reset() }
        let notes = NotificationRecorder([.DDControllerDidConnect, .DDControllerDidDisconnect])
        defer { notes.stop() }

        DDController.startDaydreamControllerDiscovery()
        let reactor = try #require(LibraryRuntime.shared.reactor)
        let fake = try FakeBlueZ(busAddress: bus.address, reactor: reactor)
        defer { fake.stop() }
        try fake.command("add_adapter")
        try fake.command("add_device", ManagerRig.controller(ManagerRig.second, paired: false))
        try fake.command("add_device", ManagerRig.controller(ManagerRig.first))
        try fake.command("add_device", ["address": ManagerRig.speaker, "name": "Speaker"])
        #expect(reactor.run(until: { DDController.controllers.count == 1 }, timeout: .seconds(5)))
        let controller = try #require(DDController.controllers.first)
        #expect(controller.address == ManagerRig.first)
        #expect(notes.names == ["DDControllerDidConnect \(ManagerRig.first)"])
        // The unpaired controller is not paired (nobody asked), nor is it trusted; the speaker is left alone.
        let devices = try fake.state()["devices"] as? [String: [String: Any]]
        #expect(devices?[ManagerRig.second]?["Paired"] as? Bool == false)
        #expect(devices?[ManagerRig.second]?["Trusted"] as? Bool == false)
        #expect(try !fake.log().contains { $0.hasPrefix("Pair ") || $0.hasPrefix("Set.Device1.Trusted") })
        #expect(try !fake.log().contains { $0.contains("AA_00_00_00_00_09") && !$0.hasPrefix("GetManagedObjects") })
        let filter = try fake.state()["filter"] as? [String: Any]
        // No UUID filter: a Gear VR advertises its name, not its data service.
        #expect(filter?["UUIDs"] == nil)
        #expect(filter?["Transport"] as? String == "le")

        DDController.stopDaydreamControllerDiscovery()
        try fake.command("drop", ["address": ManagerRig.first, "present": false])
        #expect(reactor.run(until: { DDController.controllers.isEmpty }, timeout: .seconds(5)))
        #expect(notes.names.last == "DDControllerDidDisconnect \(ManagerRig.first)")
        #expect(try !fake.log().contains { $0.hasPrefix("Pair ") })
    }

    @Test func pairingIsAnExplicitOptInOrAnAddress() throws {
        let bus = try TestBus()
        defer { bus.stop() }
        LibraryRuntime.shared.busAddressOverride = bus.address
        defer { LibraryRuntime.shared.reset() }

        DDController.startDaydreamControllerDiscovery(pairingNewControllers: true)
        let reactor = try #require(LibraryRuntime.shared.reactor)
        let fake = try FakeBlueZ(busAddress: bus.address, reactor: reactor)
        defer { fake.stop() }
        try fake.command("add_adapter")
        try fake.command("add_device", ManagerRig.controller(ManagerRig.first, paired: false))
        #expect(reactor.run(until: { DDController.controllers.count == 1 }, timeout: .seconds(5)))
        let devices = try fake.state()["devices"] as? [String: [String: Any]]
        #expect(devices?[ManagerRig.first]?["Paired"] as? Bool == true)
        #expect(devices?[ManagerRig.first]?["Trusted"] as? Bool == true)

        // Stopped: a new controller is paired only when asked by address.
        DDController.stopDaydreamControllerDiscovery()
        try fake.command("add_device", ManagerRig.controller(ManagerRig.second, paired: false))
        var outcome: Result<DDController, PairingError>?
        let request = DDController.pairDaydreamController(address: ManagerRig.second) { outcome = $0 }
        #expect(request != nil)
        #expect(reactor.run(until: { outcome != nil }, timeout: .seconds(5)))
        #expect(try outcome?.get().address == ManagerRig.second)
        #expect(reactor.run(until: { DDController.controllers.count == 2 }, timeout: .seconds(5)))
    }
}
