import Bridge
import EventLoop
import Foundation
import TestSupport
import Testing

/// `pair` and `forget` asked of the running bridge through its control socket, over the fake
/// bluetoothd: the daemon's own manager pairs (the look-alike check included) and the controller
/// then streams to it; forgetting removes it from BlueZ. What the editor page's panel and
/// D-Bus's `Pair`/`Forget` call.
@MainActor
@Suite(.serialized, .requires(TestEnvironment.canRunDBusTests, "needs dbus-daemon, python3-dbus, python3-gi"))
struct BridgePairingTests {
    /// A streamed request's reply lines, read on the loop that serves the fake until the daemon closes it.
    @MainActor final class Reply {
        var lines: [String] = []
        var ended = false
        var client: ControlStreamClient?

        init(_ request: ControlRequest, socket: String, reactor: Reactor) throws {
            client = ControlStreamClient(request, paths: [socket], reactor: reactor) { [unowned self] in lines.append($0) } ended: {
                [unowned self] _ in ended = true
            }
            guard client != nil else { throw TestFailure("no bridge at \(socket)") }
        }
    }

    func wait(_ reactor: Reactor, _ condition: () -> Bool) -> Bool {
        reactor.run(until: condition, timeout: .seconds(15), checkingEvery: .milliseconds(20))
    }

    func withBridge(devices: [[String: Any]], _ body: (Reactor, FakeBlueZ, String, DaemonOverBlueZTests.Daemon) throws -> Void) throws {
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
        #expect(wait(reactor) { ControlClient.isAnswering(socket) }, "\(daemon.stderr)")
        try body(reactor, fake, socket, daemon)
    }

    @Test(.requires(BuiltBinary.exists, "the daydream-bridge binary is not built next to the tests"))
    func theRunningBridgePairsAControllerThatThenStreamsAndForgetsIt() throws {
        let address = ManagerRig.first
        try withBridge(devices: [ManagerRig.controller(address, paired: false)]) { reactor, fake, socket, daemon in
            let pair = try Reply(.pair(address: nil), socket: socket, reactor: reactor)
            #expect(wait(reactor) { pair.ended }, "\(pair.lines) \(daemon.stderr)")
            #expect(pair.lines == [
                "ok", "looking for an unpaired Daydream controller: hold its home button until the light blinks",
                "pairing \(address)", "paired and trusted \(address)",
            ], "\(daemon.stderr)")
            let devices = try fake.state()["devices"] as? [String: [String: Any]]
            #expect(devices?[address]?["Paired"] as? Bool == true && devices?[address]?["Trusted"] as? Bool == true)
            #expect(wait(reactor) { daemon.stderr.contains("\(address): controller connected") }, "\(daemon.stderr)")
            let listed = try ControlClient.send(.controllers, paths: [socket])
            #expect(listed.details.compactMap(ControllerLine.init(text:)).map(\.isConnected) == [true], "\(listed)")

            let forget = try Reply(.forget(address: address.lowercased()), socket: socket, reactor: reactor)
            #expect(wait(reactor) { forget.ended })
            #expect(forget.lines == ["ok", "forgot \(address)"], "\(daemon.stderr)")
            #expect(try (fake.state()["devices"] as? [String: Any])?[address] == nil)
            let again = try Reply(.forget(address: address), socket: socket, reactor: reactor)
            #expect(wait(reactor) { again.ended })
            #expect(again.lines.first?.hasPrefix("error: BlueZ does not know \(address)") == true, "\(again.lines)")
        }
    }

    @Test(.requires(BuiltBinary.exists, "the daydream-bridge binary is not built next to the tests"))
    func onePairingAtATimeAndItsClientLeavingStopsTheSearch() throws {
        // Nothing unpaired in range: the search goes on until its client leaves.
        try withBridge(devices: [ManagerRig.controller(ManagerRig.first)]) { reactor, fake, socket, daemon in
            #expect(wait(reactor) { daemon.stderr.contains("controller connected") }, "\(daemon.stderr)")
            let first = try Reply(.pair(address: nil), socket: socket, reactor: reactor)
            #expect(wait(reactor) { first.lines.count == 2 }, "\(first.lines)")
            #expect(wait(reactor) { (try? fake.state()["discovering"] as? Bool) == true })
            let second = try Reply(.pair(address: nil), socket: socket, reactor: reactor)
            #expect(wait(reactor) { second.ended })
            #expect(second.lines == ["error: a pairing is under way already; wait for it to end"])
            let bad = try Reply(.pair(address: "C0:DD:EE:00:00"), socket: socket, reactor: reactor)
            #expect(wait(reactor) { bad.ended })
            #expect(bad.lines == ["error: 'C0:DD:EE:00:00' is not a Bluetooth address (AA:BB:CC:DD:EE:FF)"])

            first.client?.stop()
            #expect(wait(reactor) { daemon.stderr.contains("pairing: stopped looking") }, "\(daemon.stderr)")
            #expect(wait(reactor) { (try? fake.state()["discovering"] as? Bool) == false }, "discovery ends with the search")
            let third = try Reply(.pair(address: nil), socket: socket, reactor: reactor)
            #expect(wait(reactor) { third.lines.count == 2 }, "\(third.lines)")
            #expect(third.lines.first == "ok")
            third.client?.stop()
        }
    }
}
