import Foundation
import TestSupport
import Testing

/// `scan`, `pair`, `list` and `forget` of the built binary against the fake
/// bluetoothd (`DAYDREAM_DBUS_ADDRESS` points the binary at the test bus).
@MainActor
@Suite(.serialized, .requires(TestEnvironment.canRunDBusTests, "needs dbus-daemon, python3-dbus, python3-gi"))
struct CommandTests {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    func run(_ arguments: [String], bus: TestBus) throws -> Output {
        let process = Process()
        process.executableURL = BuiltBinary.url
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["DAYDREAM_DBUS_ADDRESS"] = bus.address
        process.environment = environment
        let directory = bus.directory
        let out = directory.appendingPathComponent("stdout"), err = directory.appendingPathComponent("stderr")
        try? Data().write(to: URL(fileURLWithPath: out.path))
        try? Data().write(to: URL(fileURLWithPath: err.path))
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return Output(status: process.terminationStatus,
                      stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    @Test(.requires(BuiltBinary.exists, "the daydream-bridge binary is not built next to the tests"))
    func scanListPairAndForget() throws {
        let rig = try ManagerRig(policy: .none, devices: [
            ManagerRig.controller(ManagerRig.first, paired: false),
            ["address": ManagerRig.speaker, "name": "Speaker"],
        ])
        defer { rig.stop() }

        let scan = try run(["scan", "--timeout", "1"], bus: rig.bus)
        #expect(scan.status == 0)
        #expect(scan.stdout.contains("\(ManagerRig.first)  Daydream controller"))
        #expect(scan.stdout.contains("not paired"))
        #expect(!scan.stdout.contains(ManagerRig.speaker))
        let filter = try rig.fake.state()["filter"] as? [String: Any]
        #expect(filter?["Transport"] as? String == "le")

        let pair = try run(["pair", "--timeout", "10"], bus: rig.bus)
        #expect(pair.status == 0, "\(pair.stderr)")
        #expect(pair.stdout.contains("Paired and trusted \(ManagerRig.first)"))
        #expect(pair.stdout.contains("firmware 1.3.5, battery 85%"))
        let device = try rig.fake.state()["devices"] as? [String: [String: Any]]
        #expect(device?[ManagerRig.first]?["Paired"] as? Bool == true)
        #expect(device?[ManagerRig.first]?["Trusted"] as? Bool == true)

        let list = try run(["list", "--socket", rig.bus.directory.appendingPathComponent("no-bridge").path], bus: rig.bus)
        #expect(list.status == 0)
        let lines = list.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("ADDRESS") == true)
        #expect(lines.count == 2)
        let row = lines.last?.split(separator: " ", omittingEmptySubsequences: true).map(String.init) ?? []
        #expect(row.first == ManagerRig.first)
        #expect(row.suffix(5) == ["yes", "yes", "85%", "1.3.5", "-"])

        let forget = try run(["forget", ManagerRig.first.lowercased()], bus: rig.bus)
        #expect(forget.status == 0, "\(forget.stderr)")
        #expect(try (rig.fake.state()["devices"] as? [String: Any])?[ManagerRig.first] == nil)
        let again = try run(["forget", ManagerRig.first], bus: rig.bus)
        #expect(again.status == 1)
        #expect(again.stderr.contains("does not know"))
        let bad = try run(["forget", "not-an-address"], bus: rig.bus)
        #expect(bad.status == 64)
    }

    @Test(.requires(BuiltBinary.exists, "the daydream-bridge binary is not built next to the tests"))
    func pairRefusesAStaleBondWithTheCure() throws {
        let rig = try ManagerRig(policy: .none, devices: [
            ManagerRig.controller(ManagerRig.first, paired: false, ["pair_error": "org.bluez.Error.AuthenticationFailed"]),
        ])
        defer { rig.stop() }
        let pair = try run(["pair", ManagerRig.first, "--timeout", "5"], bus: rig.bus)
        #expect(pair.status == 1)
        #expect(pair.stderr.contains("daydream-bridge forget \(ManagerRig.first)"))
    }

    /// The usual case: `pair` while the bridge runs. The bridge takes the controller's
    /// notifications as soon as it is paired; `pair` says so instead of waiting 30 s for a
    /// stream it cannot have and then calling the controller not connected.
    @Test(.requires(BuiltBinary.exists, "the daydream-bridge binary is not built next to the tests"))
    func pairWhileABridgeReadsTheControllerSaysSoAtOnce() throws {
        let rig = try ManagerRig(policy: .none, devices: [
            ManagerRig.controller(ManagerRig.first, paired: false, ["input_held_elsewhere": true]),
        ])
        defer { rig.stop() }
        let pair = try run(["pair", ManagerRig.first, "--timeout", "10"], bus: rig.bus)
        #expect(pair.status == 0, "\(pair.stderr)")
        #expect(pair.stdout.contains("Paired and trusted \(ManagerRig.first)"))
        #expect(pair.stdout.contains("Connected; another program reads its input"), "\(pair.stdout)")
        #expect(!pair.stdout.contains("Not connected yet"))
    }

    @Test(.requires(BuiltBinary.exists, "the daydream-bridge binary is not built next to the tests"))
    func pairWithSeveralCandidatesListsThemAndPairsNone() throws {
        let rig = try ManagerRig(policy: .none, devices: [
            ManagerRig.controller(ManagerRig.first, paired: false), ManagerRig.controller(ManagerRig.second, paired: false),
        ])
        defer { rig.stop() }
        let pair = try run(["pair", "--timeout", "10"], bus: rig.bus)
        #expect(pair.status == 1)
        #expect(pair.stdout.contains("\(ManagerRig.first)  Daydream controller"), "\(pair.stdout)")
        #expect(pair.stdout.contains("\(ManagerRig.second)  Daydream controller"), "\(pair.stdout)")
        #expect(pair.stderr.contains("daydream-bridge pair ADDRESS"), "\(pair.stderr)")
        #expect(try !rig.fake.log().contains { $0.hasPrefix("Pair ") })
    }

    @Test(.requires(BuiltBinary.exists, "the daydream-bridge binary is not built next to the tests"))
    func pairRefusesAndRemovesALookAlikeWithAHIDService() throws {
        let rig = try ManagerRig(policy: .none, devices: [
            ManagerRig.controller(ManagerRig.first, paired: false, ["hid_service": true]),
        ])
        defer { rig.stop() }
        let pair = try run(["pair", ManagerRig.first, "--timeout", "10"], bus: rig.bus)
        #expect(pair.status == 1)
        #expect(pair.stderr.contains("not a Daydream controller"), "\(pair.stderr)")
        #expect(pair.stderr.contains("HID service (0x1812)"), "\(pair.stderr)")
        #expect(!pair.stdout.contains("Paired and trusted"))
        #expect(try (rig.fake.state()["devices"] as? [String: Any])?[ManagerRig.first] == nil)
        #expect(try !rig.fake.log().contains { $0.hasPrefix("Set.Device1.Trusted") })
    }

    @Test(.requires(BuiltBinary.exists, "the daydream-bridge binary is not built next to the tests"))
    func listSaysWhenBluetoothdIsMissing() throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let list = try run(["list"], bus: bus)
        #expect(list.status == 1)
        #expect(list.stderr.contains("BlueZ is not running: start it with 'sudo systemctl start bluetooth'"))
    }
}
