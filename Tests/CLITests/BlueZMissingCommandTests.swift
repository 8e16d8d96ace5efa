import Foundation
import TestSupport
import Testing

/// `list` and `scan` on a system bus where BlueZ is not running (a private bus, no `org.bluez`).
@MainActor
@Suite(.serialized, .requires(BuiltBinary.exists && TestEnvironment.canRunDBusTests, "needs the built binary and dbus-daemon"))
struct BlueZMissingCommandTests {
    static let recording = ReplayCommandTests.root.appendingPathComponent("Tests/Recordings/buttons.recording").path

    /// `list` used to fail for want of BlueZ while a bridge that knew its controller ran.
    @Test func listShowsTheRunningBridgesControllersWithoutBlueZ() throws {
        let scratch = try RunCommandTests.makeDirectory()
        let bus = try TestBus()
        let socket = scratch.path("control")
        let daemon = try RunningBinary(["run", "--replay", Self.recording, "--print", "--bus", "none", "--socket", socket],
                                       directory: scratch.path)
        defer { daemon.signal(SIGTERM); _ = daemon.waitForExit() }
        #expect(daemon.waitFor { daemon.stderr.contains("controller connected") }, "\(daemon.stderr)")
        let address = try #require(try String(contentsOfFile: Self.recording, encoding: .utf8)
            .split(separator: "\n").first { $0.hasPrefix("address ") }.map { String($0.dropFirst(8)) })

        let list = try BuiltBinary.run(["list", "--socket", socket], environment: ["DAYDREAM_DBUS_ADDRESS": bus.address])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stderr.contains("BlueZ") && list.stderr.contains("the running bridge knows"), "\(list.stderr)")
        let row = list.stdoutLines.last?.split(separator: " ", omittingEmptySubsequences: true).map(String.init) ?? []
        #expect(row.first == address && row.last == "gamepad", "\(list.stdout)")

        // No bridge either: the error as before, and a failure.
        let alone = try BuiltBinary.run(["list", "--socket", scratch.path("none")], environment: ["DAYDREAM_DBUS_ADDRESS": bus.address])
        #expect(alone.status != 0 && alone.stderr.contains("BlueZ"), "\(alone.stderr)")
    }

    /// `scan` used to exit 0, "No Daydream controller found.", when BlueZ never answered.
    @Test func scanFailsWhenBlueZNeverAnswered() throws {
        let bus = try TestBus()
        let scan = try BuiltBinary.run(["scan", "--timeout", "1"], environment: ["DAYDREAM_DBUS_ADDRESS": bus.address])
        #expect(scan.status == 1, "\(scan.stdout)\(scan.stderr)")
        #expect(scan.stderr.contains("No Daydream controller found: BlueZ is not running"), "\(scan.stderr)")
    }
}
