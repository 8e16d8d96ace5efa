@testable import Bridge
import DaydreamCore
import TestSupport
import Testing

/// `Controller1.Lend()` and `Reclaim()` and the `Lent` property, through `busctl` and `gdbus`.
@MainActor
@Suite("D-Bus API: lending", .serialized, .requires(TestEnvironment.canRunDBusTests && BusClientTool.available, "needs dbus-daemon, busctl and gdbus"))
struct BusAPILendTests {
    typealias Rig = BusAPITests.Rig

    @Test func lendAndReclaimAreMethodsAndLentIsAnnounced() throws {
        let rig = try Rig()
        defer { rig.finish() }
        let feed = rig.connectController()
        LendingTests.lendable(feed, rig.harness)
        let monitor = try rig.monitor()
        let interface = BridgeBusNames.controllerInterface
        let controller = BusAPITests.controller

        #expect(try rig.get(controller, interface, "Lent") == "b false")
        let lend = try rig.busctl("call", BusAPITests.name, controller, interface, "Lend")
        #expect(lend.status == 0, "\(lend.stderr)")
        #expect(try rig.get(controller, interface, "Lent") == "b true")
        let again = try rig.gdbus("call", "--dest", BusAPITests.name, "--object-path", controller, "--method", interface + ".Lend")
        #expect(again.stderr.contains("org.daydream_bridge.Error.AlreadyLent: controller C0:DD:EE:00:00:01 is lent already"), "\(again.stderr)")
        #expect(try rig.busctl("call", BusAPITests.name, controller, interface, "Reclaim").status == 0)
        #expect(try rig.get(controller, interface, "Lent") == "b false")

        #expect(rig.reactor.run(until: { monitor.tool.stdout.split(separator: "\n").filter { $0.contains("{'Lent'") }.count == 2 },
                                timeout: .seconds(10), checkingEvery: .milliseconds(5)), "\(monitor.tool.stdout)")
        let changed = "\(controller): org.freedesktop.DBus.Properties.PropertiesChanged ('org.daydream_bridge.Controller1', "
        #expect(rig.signals(monitor) == [
            changed + "{'Lent': <true>}, @as [])",
            changed + "{'Connected': <false>}, @as [])",
            changed + "{'Lent': <false>}, @as [])",
            changed + "{'Connected': <true>}, @as [])",
        ], "\(rig.signals(monitor))")
        monitor.tool.stop()

        feed.linkChanged(connected: false, at: rig.reactor.now)
        let offline = try rig.busctl("call", BusAPITests.name, controller, interface, "Lend")
        #expect(offline.stderr.contains("controller C0:DD:EE:00:00:01 is not connected, so there is nothing to lend"), "\(offline.stderr)")
    }
}
