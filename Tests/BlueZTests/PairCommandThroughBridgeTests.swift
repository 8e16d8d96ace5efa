import Bridge
import EventLoop
import Foundation
import TestSupport
import Testing

/// `daydream-bridge pair` and `forget` while a bridge runs: they ask the bridge (its control
/// socket), which pairs with its own agent and connects the controller at once, as the page and
/// D-Bus do; without a bridge they still go to BlueZ themselves. Over the fake bluetoothd.
@MainActor
@Suite(.serialized, .requires(TestEnvironment.canRunDBusTests, "needs dbus-daemon, python3-dbus, python3-gi"))
struct PairCommandThroughBridgeTests {
    func withBridge(devices: [[String: Any]], _ body: (TestBus, FakeBlueZ, String, DaemonOverBlueZTests.Daemon) throws -> Void) throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let reactor = try Reactor()
        let fake = try FakeBlueZ(busAddress: bus.address, reactor: reactor)
        defer { fake.stop() }
        try fake.command("add_adapter", [:])
        for device in devices { try fake.command("add_device", device) }
        let socket = bus.directory.appendingPathComponent("control/socket").path
        let daemon = try DaemonOverBlueZTests.Daemon(
            bus: bus, arguments: ["run", "--print", "--socket", socket, "--config", DaemonOverBlueZTests.defaultConfig])
        defer { _ = daemon.stop() }
        #expect(reactor.run(until: { ControlClient.isAnswering(socket) }, timeout: .seconds(15), checkingEvery: .milliseconds(20)),
                "\(daemon.stderr)")
        try body(bus, fake, socket, daemon)
    }

    @Test(.requires(BuiltBinary.exists, "the daydream-bridge binary is not built next to the tests"))
    func pairAndForgetGoThroughTheRunningBridge() throws {
        let address = ManagerRig.first
        try withBridge(devices: [ManagerRig.controller(address, paired: false)]) { bus, fake, socket, daemon in
            let pair = try CommandTests().run(["pair", "--socket", socket, "--timeout", "20"], bus: bus)
            #expect(pair.status == 0, "\(pair.stderr) \(daemon.stderr)")
            #expect(pair.stdout.contains("Looking for an unpaired Daydream controller"), "\(pair.stdout)")
            #expect(pair.stdout.contains("Pairing \(address)...\nPaired and trusted \(address).\n"), "\(pair.stdout)")
            #expect(pair.stdout.contains("Connected: firmware 1.3.5, battery 85%."), "\(pair.stdout)")
            #expect(daemon.stderr.contains("pairing: paired and trusted \(address)"), "the bridge paired: \(daemon.stderr)")
            let devices = try fake.state()["devices"] as? [String: [String: Any]]
            #expect(devices?[address]?["Paired"] as? Bool == true && devices?[address]?["Trusted"] as? Bool == true)

            let forget = try CommandTests().run(["forget", address.lowercased(), "--socket", socket], bus: bus)
            #expect(forget.status == 0, "\(forget.stderr)")
            #expect(forget.stdout == "Forgot \(address).\n", "\(forget.stdout)")
            #expect(daemon.stderr.contains("\(address): forgotten"), "the bridge forgot: \(daemon.stderr)")
            #expect(try (fake.state()["devices"] as? [String: Any])?[address] == nil)
            let again = try CommandTests().run(["forget", address, "--socket", socket], bus: bus)
            #expect(again.status == 1)
            #expect(again.stderr.contains("does not know \(address)"), "\(again.stderr)")
        }
    }

    @Test(.requires(BuiltBinary.exists, "the daydream-bridge binary is not built next to the tests"))
    func pairThroughTheBridgeWithSeveralCandidatesListsThemAndPairsNone() throws {
        try withBridge(devices: [
            ManagerRig.controller(ManagerRig.first, paired: false), ManagerRig.controller(ManagerRig.second, paired: false),
        ]) { bus, fake, socket, daemon in
            let pair = try CommandTests().run(["pair", "--socket", socket, "--timeout", "20"], bus: bus)
            #expect(pair.status == 1)
            #expect(pair.stdout.contains("  \(ManagerRig.first)  Daydream controller"), "\(pair.stdout)")
            #expect(pair.stdout.contains("  \(ManagerRig.second)  Daydream controller"), "\(pair.stdout)")
            #expect(pair.stderr.contains("daydream-bridge pair ADDRESS"), "\(pair.stderr)")
            #expect(daemon.stderr.contains("pairing: candidate \(ManagerRig.first)"), "the bridge searched: \(daemon.stderr)")
            #expect(try !fake.log().contains { $0.hasPrefix("Pair ") })
        }
    }

    @Test(.requires(BuiltBinary.exists, "the daydream-bridge binary is not built next to the tests"))
    func withoutABridgePairAndForgetAskBlueZThemselves() throws {
        let rig = try ManagerRig(policy: .none, devices: [ManagerRig.controller(ManagerRig.first, paired: false)])
        defer { rig.stop() }
        let noBridge = rig.bus.directory.appendingPathComponent("no-bridge").path
        let pair = try CommandTests().run(["pair", "--socket", noBridge, "--timeout", "10"], bus: rig.bus)
        #expect(pair.status == 0, "\(pair.stderr)")
        #expect(pair.stdout.contains("Paired and trusted \(ManagerRig.first)."), "\(pair.stdout)")
        #expect(pair.stdout.contains("Connected: firmware 1.3.5, battery 85%"), "\(pair.stdout)")
        let forget = try CommandTests().run(["forget", ManagerRig.first, "--socket", noBridge], bus: rig.bus)
        #expect(forget.status == 0, "\(forget.stderr)")
        #expect(forget.stdout == "Forgot \(ManagerRig.first).\n")
    }
}
