import EventLoop
import Foundation
import TestSupport
import Testing
import Timebase

/// `daydream-bridge lend` and `reclaim` against the fake bluetoothd, with a second client doing
/// what Monado does: refused while the bridge holds the controller, the packets after `lend`,
/// the bridge streaming again when that client lets go and after `reclaim`.
@MainActor
@Suite(.serialized) struct LendOverBlueZTests {
    typealias Daemon = DaemonOverBlueZTests.Daemon

    func wait(_ reactor: Reactor, _ condition: () -> Bool) -> Bool {
        DaemonOverBlueZTests().wait(reactor, condition)
    }

    /// Runs `arguments` beside the daemon, the fake sending `packet` every 40 ms meanwhile when
    /// one is given (so the daemon's 0.5 s silence check releases nothing); its exit status and
    /// output once it exited, nil when it did not within 5 s.
    func command(_ arguments: [String], bus: TestBus, reactor: Reactor, fake: FakeBlueZ? = nil, streaming packet: String? = nil)
        -> (status: Int32, stdout: String, stderr: String)? {
        let run = Daemon.Listing(bus: bus, arguments: arguments)
        if let fake, let packet {
            let end = reactor.now + TimeSpan.seconds(5)
            while !run.finished, reactor.now < end {
                _ = try? fake.command("send", ["address": ManagerRig.first, "hex": packet])
                _ = reactor.run(until: { run.finished }, timeout: .milliseconds(40))
            }
        }
        guard wait(reactor, { run.finished }), let process = run.daemon?.process else { return nil }
        return (process.terminationStatus, run.stdout, run.daemon?.stderr ?? "")
    }

    func count(_ text: String, in log: String) -> Int {
        log.components(separatedBy: text).count - 1
    }

    @Test(.requires(BuiltBinary.exists, "the daydream-bridge binary is not built next to the tests"))
    func lentControllerGoesToTheOtherClientAndComesBack() throws {
        try withOneController { bus, reactor, fake in
            let socket = bus.directory.appendingPathComponent("control").path
            let daemon = try Daemon(bus: bus, arguments: [
                "run", "--print", "--socket", socket, "--config", DaemonOverBlueZTests.defaultConfig,
            ])
            defer { _ = daemon.stop() }
            let streaming = "C0:DD:EE:00:00:01: connected, streaming through acquireNotify"
            #expect(wait(reactor) { count(streaming, in: daemon.stderr) == 1 }, "\(daemon.stderr)")
            let monado = try MonadoStandIn(busAddress: bus.address, reactor: reactor)
            defer { monado.stop() }
            #expect(wait(reactor) { monado.inputPath(of: ManagerRig.first) != nil })
            let input = try #require(monado.inputPath(of: ManagerRig.first))

            // While the bridge holds the controller, Monado's AcquireNotify is refused.
            var answer: String??
            monado.acquire(input) { answer = .some($0) }
            #expect(wait(reactor) { answer != nil })
            #expect(answer == .some("org.bluez.Error.NotPermitted"))

            // A button held (and the stream kept up), then lent: released by the lending, not by a
            // silence, and the connection kept.
            try fake.command("send", ["address": ManagerRig.first, "hex": ManagerRig.volumeUpPacket])
            #expect(wait(reactor) { daemon.stdout.contains("C0:DD:EE:00:00:01 gamepad EV_KEY BTN_TR 1") })
            let silences = count("no notification for", in: daemon.stderr)
            let lent = command(["lend", "--socket", socket], bus: bus, reactor: reactor, fake: fake, streaming: ManagerRig.volumeUpPacket)
            #expect(lent?.status == 0)
            #expect(lent?.stdout == "C0:DD:EE:00:00:01: gamepad, lent\n")
            #expect(wait(reactor) { daemon.stdout.contains("C0:DD:EE:00:00:01 gamepad EV_KEY BTN_TR 0") })
            #expect(count("no notification for", in: daemon.stderr) == silences, "\(daemon.stderr)")
            #expect(daemon.stderr.contains("C0:DD:EE:00:00:01: lent; everything released"))
            #expect(wait(reactor) { monado.notifyAcquired(input) == false })
            #expect(try fake.state().devicesConnected(ManagerRig.first) == true)
            let again = command(["lend", "C0:DD:EE:00:00:01", "--socket", socket], bus: bus, reactor: reactor)
            #expect(again?.status == 1)
            #expect(again?.stderr.contains("controller C0:DD:EE:00:00:01 is lent already") == true)
            let line = command(["list", "--socket", socket], bus: bus, reactor: reactor)
            #expect(line?.stdout.contains("C0:DD:EE:00:00:01  Daydream controller  lent ") == true, "\(line?.stdout ?? "")")

            // Monado gets the controller's packets.
            answer = nil
            monado.acquire(input) { answer = .some($0) }
            #expect(wait(reactor) { answer != nil })
            #expect(answer == .some(nil))
            let sent = try fake.command("send", ["address": ManagerRig.first, "hex": ManagerRig.restPacket]) as? String
            #expect(sent == "socket")
            let packet = monado.readPacket()
            #expect(packet.map { $0.count } == 20)
            #expect(packet.map { $0.map { String(format: "%02X", $0) }.joined() } == ManagerRig.restPacket)

            // Monado lets go: the bridge takes the controller back by itself and streams again.
            monado.release()
            #expect(wait(reactor) { count(streaming, in: daemon.stderr) == 2 })
            // The press held when it was lent stays released until the button is let go.
            try fake.command("send", ["address": ManagerRig.first, "hex": ManagerRig.restPacket])
            try fake.command("send", ["address": ManagerRig.first, "hex": ManagerRig.volumeUpPacket])
            #expect(wait(reactor) { count("C0:DD:EE:00:00:01 gamepad EV_KEY BTN_TR 1", in: daemon.stdout) == 2 })

            // Lent again, taken back by hand.
            #expect(command(["lend", "--socket", socket], bus: bus, reactor: reactor)?.status == 0)
            let reclaimed = command(["reclaim", "--socket", socket], bus: bus, reactor: reactor)
            #expect(reclaimed?.status == 0)
            #expect(wait(reactor) { count(streaming, in: daemon.stderr) == 3 })
            // Never a disconnect: the connection and the bond were kept throughout.
            #expect(!(try fake.log()).contains { $0.hasPrefix("Disconnect") })
        }
    }

    @Test(.requires(BuiltBinary.exists, "the daydream-bridge binary is not built next to the tests"))
    func theLaunchWrapperLendsWhileItsCommandRuns() throws {
        try withOneController { bus, reactor, fake in
            let socket = bus.directory.appendingPathComponent("control").path
            let daemon = try Daemon(bus: bus, arguments: [
                "run", "--print", "--socket", socket, "--config", DaemonOverBlueZTests.defaultConfig,
            ])
            defer { _ = daemon.stop() }
            let streaming = "C0:DD:EE:00:00:01: connected, streaming through acquireNotify"
            #expect(wait(reactor) { count(streaming, in: daemon.stderr) == 1 }, "\(daemon.stderr)")
            // The command (here `list`) runs while the controller is lent; it is taken back after.
            let wrapped = command(["lend", "--socket", socket, "--", BuiltBinary.url.path, "list", "--socket", socket],
                                  bus: bus, reactor: reactor)
            #expect(wrapped?.status == 0, "\(wrapped?.stderr ?? "")")
            #expect(wrapped?.stdout.contains("C0:DD:EE:00:00:01  Daydream controller  lent ") == true, "\(wrapped?.stdout ?? "")")
            #expect(wait(reactor) { count(streaming, in: daemon.stderr) == 2 }, "\(daemon.stderr)")
            let log = daemon.stderr
            let lent = try #require(log.range(of: "C0:DD:EE:00:00:01: lent; everything released"))
            let back = try #require(log.range(of: "C0:DD:EE:00:00:01: taken back"))
            #expect(lent.upperBound <= back.lowerBound)
        }
    }
}

extension [String: Any] {
    /// Whether the fake's state says the device at `address` is connected.
    func devicesConnected(_ address: String) -> Bool? {
        ((self["devices"] as? [String: Any])?[address] as? [String: Any])?["Connected"] as? Bool
    }
}
