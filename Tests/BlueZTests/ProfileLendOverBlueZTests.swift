import Foundation
import TestSupport
import Testing

/// A profile with `lend = true` against the fake bluetoothd, with a second client doing what
/// Monado does: `profile vr` lets go of the notification (Monado's `AcquireNotify` then gets the
/// packets), and `profile vr -- COMMAND` lends while the command runs and takes back after.
@MainActor
@Suite(.serialized) struct ProfileLendOverBlueZTests {
    typealias Daemon = DaemonOverBlueZTests.Daemon

    @Test(.requires(BuiltBinary.exists, "the daydream-bridge binary is not built next to the tests"))
    func aLendingProfileLendsAndTheLaunchWrapperTakesBackAfter() throws {
        let lending = LendOverBlueZTests()
        try withOneController { bus, reactor, fake in
            let socket = bus.directory.appendingPathComponent("control").path
            let config = bus.directory.appendingPathComponent("config.toml")
            let shipped = try String(contentsOfFile: DaemonOverBlueZTests.defaultConfig, encoding: .utf8)
            try (shipped + "\n[profile.vr]\nlend = true\n").write(to: config, atomically: false, encoding: .utf8)
            let daemon = try Daemon(bus: bus, arguments: ["run", "--print", "--socket", socket, "--config", config.path])
            defer { _ = daemon.stop() }
            let streaming = "C0:DD:EE:00:00:01: connected, streaming through acquireNotify"
            #expect(lending.wait(reactor) { lending.count(streaming, in: daemon.stderr) == 1 }, "\(daemon.stderr)")
            let monado = try MonadoStandIn(busAddress: bus.address, reactor: reactor)
            defer { monado.stop() }
            #expect(lending.wait(reactor) { monado.inputPath(of: ManagerRig.first) != nil })
            let input = try #require(monado.inputPath(of: ManagerRig.first))
            #expect(monado.notifyAcquired(input) == true)

            // `profile vr`: lent before the reply, the acquired descriptor closed, the connection kept.
            let switched = lending.command(["profile", "vr", "--socket", socket], bus: bus, reactor: reactor)
            #expect(switched?.status == 0, "\(switched?.stderr ?? "")")
            #expect(switched?.stdout == "C0:DD:EE:00:00:01: vr, lent\n")
            #expect(lending.wait(reactor) { monado.notifyAcquired(input) == false })
            #expect(try fake.state().devicesConnected(ManagerRig.first) == true)
            var answer: String??
            monado.acquire(input) { answer = .some($0) }
            #expect(lending.wait(reactor) { answer != nil })
            #expect(answer == .some(nil))
            try fake.command("send", ["address": ManagerRig.first, "hex": ManagerRig.restPacket])
            #expect(monado.readPacket()?.count == 20)
            monado.release()
            #expect(lending.wait(reactor) { lending.count(streaming, in: daemon.stderr) == 2 }, "\(daemon.stderr)")

            // Back in a profile that does not lend; then the launch wrapper lends while its command
            // runs and takes back when it switches back.
            #expect(lending.command(["profile", "gamepad", "--socket", socket], bus: bus, reactor: reactor)?.status == 0)
            let wrapped = lending.command(["profile", "vr", "--socket", socket, "--", BuiltBinary.url.path, "list", "--socket", socket],
                                          bus: bus, reactor: reactor)
            #expect(wrapped?.status == 0, "\(wrapped?.stderr ?? "")")
            #expect(wrapped?.stdout.contains("C0:DD:EE:00:00:01  Daydream controller  lent ") == true, "\(wrapped?.stdout ?? "")")
            #expect(lending.wait(reactor) { lending.count(streaming, in: daemon.stderr) == 3 }, "\(daemon.stderr)")
            #expect(daemon.stderr.contains("C0:DD:EE:00:00:01: taken back, as its profile does not lend it"))
            #expect(!(try fake.log()).contains { $0.hasPrefix("Disconnect") })
        }
    }
}
