import EventLoop
import Foundation
import TestSupport
import Testing

/// `daydream-bridge run` against the fake bluetoothd: BlueZ -> controller -> mapping -> events
/// (printed with `--print`, as there is no /dev/uinput here), with the one-line problems and the
/// release on a drop. The VM end-to-end tests do the same with real Bluetooth and uinput.
@MainActor
@Suite(.serialized) struct DaemonOverBlueZTests {
    nonisolated static let defaultConfig = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("config/default.toml").path

    /// The daemon running on the test bus, its output in files.
    final class Daemon {
        let process = Process()
        let out: URL
        let err: URL

        init(bus: TestBus, arguments: [String]? = nil, outputName: String = "run", busAddress: String? = nil) throws {
            out = bus.directory.appendingPathComponent("\(outputName)-stdout")
            err = bus.directory.appendingPathComponent("\(outputName)-stderr")
            try? Data().write(to: URL(fileURLWithPath: out.path))
            try? Data().write(to: URL(fileURLWithPath: err.path))
            process.executableURL = BuiltBinary.url
            process.arguments = arguments ?? ["run", "--print", "--socket", "none", "--config", DaemonOverBlueZTests.defaultConfig]
            var environment = ProcessInfo.processInfo.environment
            environment["DAYDREAM_DBUS_ADDRESS"] = busAddress ?? bus.address
            process.environment = environment
            process.standardOutput = try FileHandle(forWritingTo: out)
            process.standardError = try FileHandle(forWritingTo: err)
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }

        var stdout: String { (try? String(contentsOf: out, encoding: .utf8)) ?? "" }
        var stderr: String { (try? String(contentsOf: err, encoding: .utf8)) ?? "" }

        func stop() -> Int32 {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            return process.terminationStatus
        }

        deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        /// A short command (e.g. `list`) run beside the daemon; poll `finished` while turning the loop.
        final class Listing {
            let daemon: Daemon?

            init(bus: TestBus, arguments: [String]) {
                daemon = try? Daemon(bus: bus, arguments: arguments, outputName: "list")
            }

            var finished: Bool { daemon.map { !$0.process.isRunning } ?? true }
            var stdout: String { daemon?.stdout ?? "" }
        }
    }

    /// Turns the loop (which serves the fake) until `condition` holds or 5 s pass.
    func wait(_ reactor: Reactor, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(5)
        while !condition(), Date() < end { reactor.runOnce(timeout: .milliseconds(20)) }
        return condition()
    }

    @Test(.requires(BuiltBinary.exists, "the daydream-bridge binary is not built next to the tests"))
    func packetsBecomeEventsAndADropReleasesThem() throws {
        try withOneController { bus, reactor, fake in
            let daemon = try Daemon(bus: bus)
            #expect(wait(reactor) { daemon.stderr.contains("C0:DD:EE:00:00:01: controller connected, profile gamepad") })
            let sent = try fake.command("send", ["address": ManagerRig.first, "hex": ManagerRig.volumeUpPacket]) as? String
            #expect(sent == "socket" || sent == "signal")
            #expect(wait(reactor) { daemon.stdout.contains("C0:DD:EE:00:00:01 gamepad EV_KEY BTN_TR 1") })
            try fake.command("drop", ["address": ManagerRig.first, "present": false])
            #expect(wait(reactor) { daemon.stdout.contains("C0:DD:EE:00:00:01 gamepad EV_KEY BTN_TR 0") })
            // stderr is a pipe of its own: its line may come after stdout's.
            #expect(wait(reactor) { daemon.stderr.contains("C0:DD:EE:00:00:01: disconnected; everything released") })
            let lines = daemon.stdout.split(separator: "\n").map { $0.split(separator: " ").dropFirst(2).joined(separator: " ") }
            #expect(lines.suffix(2) == ["gamepad EV_KEY BTN_TR 0", "gamepad EV_SYN SYN_REPORT 0"])
            #expect(daemon.stop() == 0)
        }
    }

    /// dbus-daemon killed under the running bridge (bluetoothd with it), then both started again
    /// on the same socket: the bridge released the held button but then stayed on the dead
    /// connection for good (systemd's Restart= never fired, as it did not exit). Now it tries the
    /// bus again with backoff and the controller streams to its devices again.
    @Test(.requires(BuiltBinary.exists, "the daydream-bridge binary is not built next to the tests"))
    func afterTheBusIsBackTheControllerStreamsAgain() throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let reactor = try Reactor()
        func startBlueZ() throws -> FakeBlueZ {
            let fake = try FakeBlueZ(busAddress: bus.socketAddress, reactor: reactor)
            try fake.command("add_adapter", [:])
            try fake.command("add_device", ManagerRig.controller(ManagerRig.first))
            return fake
        }
        var fake = try startBlueZ()
        let daemon = try Daemon(bus: bus, busAddress: bus.socketAddress)
        func pressed() -> Int { daemon.stdout.components(separatedBy: "gamepad EV_KEY BTN_TR 1\n").count - 1 }
        #expect(wait(reactor) { daemon.stderr.contains("C0:DD:EE:00:00:01: controller connected, profile gamepad") })
        try fake.command("send", ["address": ManagerRig.first, "hex": ManagerRig.volumeUpPacket])
        #expect(wait(reactor) { pressed() == 1 })

        bus.kill()
        fake.kill()
        #expect(wait(reactor) { daemon.stdout.contains("gamepad EV_KEY BTN_TR 0") })
        #expect(wait(reactor) { daemon.stderr.contains("trying the D-Bus system bus again") })

        try bus.restart()
        fake = try startBlueZ()
        defer { fake.stop() }
        #expect(wait(reactor) { daemon.stderr.contains("the D-Bus system bus is back") })
        #expect(wait(reactor) { daemon.stderr.components(separatedBy: "C0:DD:EE:00:00:01: connected, streaming").count - 1 == 2 })
        try fake.command("send", ["address": ManagerRig.first, "hex": ManagerRig.restPacket])
        try fake.command("send", ["address": ManagerRig.first, "hex": ManagerRig.volumeUpPacket])
        #expect(wait(reactor) { pressed() == 2 }, "the controller's packets reach the devices again")
        #expect(daemon.process.isRunning)
        #expect(daemon.stop() == 0)
    }

    @Test(.requires(BuiltBinary.exists, "the daydream-bridge binary is not built next to the tests"))
    func listShowsTheProfileTheRunningBridgeGives() throws {
        try withOneController { bus, reactor, fake in
            let socket = bus.directory.appendingPathComponent("control").path
            let daemon = try Daemon(bus: bus, arguments: [
                "run", "--print", "--socket", socket, "--config", DaemonOverBlueZTests.defaultConfig, "--profile", "mouse",
            ])
            #expect(wait(reactor) { daemon.stderr.contains("C0:DD:EE:00:00:01: controller connected, profile mouse") })
            // `list` is a separate process; the loop keeps serving the fake while it runs.
            let list = Daemon.Listing(bus: bus, arguments: ["list", "--socket", socket])
            #expect(wait(reactor) { list.finished })
            let row = list.stdout.split(separator: "\n").last?.split(separator: " ", omittingEmptySubsequences: true) ?? []
            #expect(row.first == "C0:DD:EE:00:00:01")
            #expect(row.last == "mouse")
            #expect(daemon.stop() == 0)
        }
    }

    @Test(.requires(BuiltBinary.exists, "the daydream-bridge binary is not built next to the tests"))
    func runPairWithSeveralCandidatesPairsNoneAndALookAlikeIsRefused() throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let reactor = try Reactor()
        let fake = try FakeBlueZ(busAddress: bus.address, reactor: reactor)
        defer { fake.stop() }
        try fake.command("add_adapter")
        try fake.command("add_device", ManagerRig.controller(ManagerRig.first, paired: false))
        try fake.command("add_device", ManagerRig.controller(ManagerRig.second, paired: false))
        let arguments = ["run", "--pair", "--print", "--socket", "none", "--config", DaemonOverBlueZTests.defaultConfig]
        let several = try Daemon(bus: bus, arguments: arguments)
        #expect(wait(reactor) { several.stderr.contains("2 unpaired controllers are in range") }, "\(several.stderr)")
        #expect(several.stderr.contains("daydream-bridge pair ADDRESS"))
        #expect(try !fake.log().contains { $0.hasPrefix("Pair ") })
        #expect(several.stop() == 0)

        // One candidate, a look-alike: refused, removed, and not tried again.
        try fake.command("remove_device", ["address": ManagerRig.second])
        try fake.command("remove_device", ["address": ManagerRig.first])
        try fake.command("add_device", ManagerRig.controller(ManagerRig.first, paired: false, ["hid_service": true]))
        let lookAlike = try Daemon(bus: bus, arguments: arguments, outputName: "look-alike")
        #expect(wait(reactor) { lookAlike.stderr.contains("still looking") }, "\(lookAlike.stderr)")
        #expect(lookAlike.stderr.contains("HID service (0x1812)"))
        let devices = try fake.state()["devices"] as? [String: Any]
        #expect(devices?[ManagerRig.first] == nil)
        #expect(try !fake.log().contains { $0.hasPrefix("Set.Device1.Trusted") })
        #expect(lookAlike.stop() == 0)
    }

    @Test(.requires(BuiltBinary.exists, "the daydream-bridge binary is not built next to the tests"))
    func withoutAnAdapterItSaysWhatToDoAndWaits() throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let reactor = try Reactor()
        let fake = try FakeBlueZ(busAddress: bus.address, reactor: reactor)
        defer { fake.stop() }
        let daemon = try Daemon(bus: bus)
        #expect(wait(reactor) { daemon.stderr.contains("no Bluetooth adapter: plug one in") })
        #expect(daemon.process.isRunning)
        #expect(daemon.stop() == 0)
    }

    @Test(.requires(BuiltBinary.exists, "the daydream-bridge binary is not built next to the tests"))
    func withoutBluetoothdItSaysHowToStartIt() throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let reactor = try Reactor()
        let daemon = try Daemon(bus: bus)
        #expect(wait(reactor) { daemon.stderr.contains("BlueZ is not running: start it with 'sudo systemctl start bluetooth'") })
        #expect(daemon.process.isRunning)
        #expect(daemon.stop() == 0)
    }

    @Test(.requires(BuiltBinary.exists, "the daydream-bridge binary is not built next to the tests"))
    func recordWritesWhatTheControllerSentAndReplayReadsIt() throws {
        try withOneController { bus, reactor, fake in
            let file = bus.directory.appendingPathComponent("session.recording").path
            let recorder = try Daemon(bus: bus, arguments: ["record", file])
            #expect(wait(reactor) { recorder.stderr.contains("recording C0:DD:EE:00:00:01 to") })
            for hex in [ManagerRig.restPacket, ManagerRig.volumeUpPacket, ManagerRig.restPacket] {
                try fake.command("send", ["address": ManagerRig.first, "hex": hex])
                reactor.runOnce(timeout: .milliseconds(30))
            }
            #expect(wait(reactor) { ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").count >= 5 })
            try fake.command("drop", ["address": ManagerRig.first, "present": false])
            #expect(wait(reactor) { ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").contains(" disconnected\n") })
            #expect(recorder.stop() == 0)
            #expect(recorder.stderr.contains("recorded 3 packets over"))
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let lines = text.split(separator: "\n").map(String.init)
            #expect(lines.first == "# daydream-bridge recording v1")
            #expect(lines.contains("address C0:DD:EE:00:00:01"))
            #expect(lines.contains("name Daydream controller"))
            #expect(lines.contains { $0.hasPrefix("source daydream-bridge ") })
            let timed = lines.filter { $0.first?.isNumber == true }
            #expect(timed.map { $0.split(separator: " ").dropFirst().joined(separator: " ") }
                .filter { $0 != "connected" && !$0.hasPrefix("battery") }
                == [ManagerRig.restPacket, ManagerRig.volumeUpPacket, ManagerRig.restPacket, "disconnected"])
            // The recording replays: volume-up is BTN_TR in the default gamepad profile.
            let replay = try Daemon(bus: bus, arguments: ["replay", file, "--fast", "--config", DaemonOverBlueZTests.defaultConfig])
            replay.process.waitUntilExit()
            #expect(replay.process.terminationStatus == 0)
            let events = replay.stdout.split(separator: "\n").map { $0.split(separator: " ").dropFirst().joined(separator: " ") }
            #expect(events == ["gamepad EV_KEY BTN_TR 1", "gamepad EV_SYN SYN_REPORT 0", "gamepad EV_KEY BTN_TR 0", "gamepad EV_SYN SYN_REPORT 0"])
        }    }
}
