import Foundation
import Glibc
import TestSupport
import Testing

/// `run --bus` against the built binary with a replayed controller: the D-Bus API with no
/// controller at hand (what frontends are built and tested against), read with busctl.
@Suite("run --bus", .serialized, .requires(
    BuiltBinary.exists && TestEnvironment.canRunDBusTests && BusClientTool.available,
    "needs the built binary, dbus-daemon and busctl"))
@MainActor
struct RunBusTests {
    static let recording = ReplayCommandTests.root.appendingPathComponent("Tests/Recordings/buttons.recording").path
    static let controller = "/org/daydream_bridge/controller/C0_DD_EE_00_00_01"

    /// `busctl` against `bus`, to its exit.
    static func busctl(_ bus: TestBus, _ arguments: String...) throws -> (status: Int32, stdout: String, stderr: String) {
        let tool = try BusClientTool(BusClientTool.busctl, ["--address=\(bus.socketAddress)"] + arguments, directory: bus.directory.path)
        let status = tool.waitForExit()
        return (status, tool.stdout, tool.stderr)
    }

    @Test func theSessionBusIsTheDefaultAndAReplayShowsItsController() throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let scratch = try TemporaryDirectory(prefix: "daydream-runbus")
        let daemon = try RunningBinary(["run", "--replay", Self.recording, "--print", "--socket", "none"], directory: scratch.path,
                                       environment: ["DBUS_SESSION_BUS_ADDRESS": bus.socketAddress])
        defer {
            daemon.signal(SIGTERM)
            _ = daemon.waitForExit()
        }
        #expect(daemon.waitFor { daemon.stderr.contains("D-Bus API on the session bus as org.daydream_bridge") }, "\(daemon.stderr)")
        #expect(daemon.waitFor {
            (try? Self.busctl(bus, "get-property", "org.daydream_bridge", Self.controller, "org.daydream_bridge.Controller1", "Firmware"))?
                .stdout == "s \"scenario\"\n"
        }, "\(daemon.stderr)")
        let battery = try Self.busctl(bus, "get-property", "org.daydream_bridge", Self.controller, "org.daydream_bridge.Controller1", "Battery")
        #expect(battery.stdout == "y 90\n", "\(battery.stderr)")
        let version = try Self.busctl(bus, "get-property", "org.daydream_bridge", "/org/daydream_bridge", "org.daydream_bridge.Bridge1", "Version")
        #expect(version.stdout.hasPrefix("s \""), "\(version.stderr)")
    }

    @Test func noneOffersNothingAndAWrongChoiceSaysTheValidOnes() throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let scratch = try TemporaryDirectory(prefix: "daydream-runbus")
        let wrong = try RunningBinary(["run", "--bus", "sesion", "--print"], directory: scratch.path)
        #expect(wrong.waitForExit() == 64)
        #expect(wrong.stderr.contains("--bus takes session, system or none, not 'sesion'"), "\(wrong.stderr)")

        let daemon = try RunningBinary(["run", "--bus", "none", "--replay", Self.recording, "--print", "--socket", "none"],
                                       directory: scratch.path, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.socketAddress])
        defer {
            daemon.signal(SIGTERM)
            _ = daemon.waitForExit()
        }
        #expect(daemon.waitFor { daemon.stderr.contains("controller connected") }, "\(daemon.stderr)")
        let names = try Self.busctl(bus, "list", "--acquired")
        #expect(!names.stdout.contains("org.daydream_bridge"), "\(names.stdout)")
    }
}
