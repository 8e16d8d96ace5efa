import DBus
import EventLoop
import Foundation
import Glibc
import TestSupport
import Testing

/// dbus/org.daydream_bridge.conf, the system bus policy `make install` ships, in a real
/// dbus-daemon configured like Debian's system bus (nobody may own names or call services unless
/// a policy says so): it parses, and it lets root own the name, group input call it, and keeps
/// other users out. The parts that need other users run as root (CI), through setpriv.
@MainActor
@Suite(.serialized, .requires(TestEnvironment.canRunDBusTests && BusClientTool.available, "needs dbus-daemon and busctl"))
struct ShippedPolicyTests {
    static let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("dbus/org.daydream_bridge.conf").path

    /// The default context of Debian's system.conf, in short, then the shipped file.
    static let systemPolicy = """
      <policy context="default">
        <allow user="*"/>
        <deny own="*"/>
        <deny send_type="method_call"/>
        <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
        <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
        <allow send_type="signal"/>
        <allow send_requested_reply="true" send_type="method_return"/>
        <allow send_requested_reply="true" send_type="error"/>
        <allow receive_type="method_call"/>
        <allow receive_type="method_return"/>
        <allow receive_type="error"/>
        <allow receive_type="signal"/>
      </policy>
      <include>\(shipped)</include>
    """

    nonisolated static let asRoot = getuid() == 0

    /// busctl against `bus` as this user, or through setpriv as uid/gid `user`:`group`.
    func busctl(_ bus: TestBus, reactor: Reactor, as identity: (user: Int, group: Int)? = nil, _ arguments: String...) throws
        -> (status: Int32, output: String) {
        let command = identity.map { ["/usr/bin/setpriv", "--reuid=\($0.user)", "--regid=\($0.group)", "--clear-groups", BusClientTool.busctl] }
            ?? [BusClientTool.busctl]
        let tool = try BusClientTool(command[0], Array(command.dropFirst()) + ["--address=\(bus.socketAddress)"] + arguments,
                                     directory: bus.directory.path)
        #expect(reactor.run(until: { !tool.isRunning }, timeout: .seconds(10), checkingEvery: .milliseconds(5)))
        return (tool.status, tool.stdout + tool.stderr)
    }

    @Test func itParsesAndRootOwnsTheName() throws {
        let bus = try TestBus(policy: Self.systemPolicy)  // throws when dbus-daemon refuses the file
        defer { bus.stop() }
        let reactor = try Reactor()
        let requested = try busctl(bus, reactor: reactor, "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                   "RequestName", "su", "org.daydream_bridge", "0")
        if Self.asRoot {
            #expect(requested.output == "u 1\n", "root owns the name: \(requested.output)")
        } else {
            #expect(requested.status != 0, "only root and the service user own the name")
            print("ShippedPolicyTests: not root, so the other users' checks are skipped")
        }
    }

    /// A bus with the shipped system policy, a loop, and an object server on a connection that
    /// owns the bridge's name there, as root may, exporting `property` on the bridge's
    /// `Bridge1` at `/org/daydream_bridge`.
    func bridgeServer(exporting property: ExportedProperty, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> (bus: TestBus, reactor: Reactor, server: ObjectServer) {
        let bus = try TestBus(policy: Self.systemPolicy)
        let reactor = try Reactor()
        let connection = try BusConnection(address: bus.socketAddress, reactor: reactor)
        var owned = false
        connection.requestName("org.daydream_bridge") { owned = (try? $0.get()) == .primaryOwner }
        #expect(reactor.run(until: { owned }, timeout: .seconds(5)), sourceLocation: sourceLocation)
        let server = ObjectServer(connection: connection)
        server.add(path: "/org/daydream_bridge", interfaces: [ExportedInterface(name: "org.daydream_bridge.Bridge1", properties: [property])])
        return (bus, reactor, server)
    }

    @Test(.requires(asRoot, "needs root to act as other users"))
    func groupInputCallsTheBridgeAndOthersAreKeptOut() throws {
        let (bus, reactor, server) = try bridgeServer(exporting: ExportedProperty("Version", "s") { .string("1") })
        defer { bus.stop() }

        let input = Int(getgrnam("input")?.pointee.gr_gid ?? 0)
        let member = try busctl(bus, reactor: reactor, as: (65534, input),
                                "get-property", "org.daydream_bridge", "/org/daydream_bridge", "org.daydream_bridge.Bridge1", "Version")
        #expect(member.output == "s \"1\"\n", "group input reads: \(member.output)")
        let stranger = try busctl(bus, reactor: reactor, as: (65534, 65534),
                                  "get-property", "org.daydream_bridge", "/org/daydream_bridge", "org.daydream_bridge.Bridge1", "Version")
        #expect(stranger.status != 0 && stranger.output.contains("Access denied"), "others are kept out: \(stranger.output)")
        let squatter = try busctl(bus, reactor: reactor, as: (65534, input), "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                  "org.freedesktop.DBus", "RequestName", "su", "org.daydream_bridge", "0")
        #expect(squatter.status != 0, "group input cannot pose as the bridge: \(squatter.output)")
        withExtendedLifetime(server) {}
    }

    /// A listener as uid/gid `user`:`group` that asks for every signal with AddMatch and prints
    /// each one's interface and member, a line each, after "ready" once its match is in place.
    func signalListener(_ bus: TestBus, as identity: (user: Int, group: Int)) throws -> BusClientTool {
        let script = """
            import sys, dbus
            from gi.repository import GLib
            from dbus.mainloop.glib import DBusGMainLoop
            DBusGMainLoop(set_as_default=True)
            bus = dbus.bus.BusConnection(sys.argv[1])
            def seen(*arguments, interface=None, member=None):
                print(f"{interface}.{member}", flush=True)
            bus.add_signal_receiver(seen, interface_keyword="interface", member_keyword="member")
            print("ready", flush=True)
            GLib.MainLoop().run()
            """
        return try BusClientTool("/usr/bin/setpriv", [
            "--reuid=\(identity.user)", "--regid=\(identity.group)", "--clear-groups",
            "/usr/bin/python3", "-c", script, bus.socketAddress,
        ], directory: bus.directory.path)
    }

    /// Signals are broadcast to every match unless the receiver's policy says no: the bridge's
    /// PropertiesChanged reaches group input and not a stranger, who does get a signal sent
    /// after it by someone else (so the bridge's was not merely still on its way).
    @Test(.requires(asRoot, "needs root to act as other users"))
    func onlyGroupInputReceivesTheBridgesSignals() throws {
        let (bus, reactor, server) = try bridgeServer(
            exporting: ExportedProperty("ActiveProfile", "s", emitsChangedSignal: true) { .string("racing") })
        defer { bus.stop() }
        let interface = "org.daydream_bridge.Bridge1"

        let input = Int(getgrnam("input")?.pointee.gr_gid ?? 0)
        let member = try signalListener(bus, as: (65534, input))
        let stranger = try signalListener(bus, as: (65534, 65534))
        #expect(reactor.run(until: { member.stdout.contains("ready\n") && stranger.stdout.contains("ready\n") },
                            timeout: .seconds(10), checkingEvery: .milliseconds(5)), "\(member.stderr) \(stranger.stderr)")

        server.propertiesChanged(path: "/org/daydream_bridge", interface: interface, names: ["ActiveProfile"])
        let changed = "org.freedesktop.DBus.Properties.PropertiesChanged"
        #expect(reactor.run(until: { member.stdout.contains(changed) }, timeout: .seconds(10), checkingEvery: .milliseconds(5)),
                "group input gets the bridge's signal: \(member.stdout) \(member.stderr)")
        let marker = try busctl(bus, reactor: reactor, "emit", "/marker", "org.example.Marker", "Sent")
        #expect(marker.status == 0, "\(marker.output)")
        #expect(reactor.run(until: { stranger.stdout.contains("org.example.Marker.Sent") }, timeout: .seconds(10),
                            checkingEvery: .milliseconds(5)), "the stranger gets others' signals: \(stranger.stdout)")
        #expect(!stranger.stdout.contains(changed), "the stranger gets none of the bridge's: \(stranger.stdout)")
        withExtendedLifetime(server) {}
    }
}
