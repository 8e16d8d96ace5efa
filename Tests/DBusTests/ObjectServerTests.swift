import DBus
import EventLoop
import Foundation
import TestSupport
import Testing
import Timebase

/// Exported objects as clients written elsewhere see them: `busctl` (systemd's sd-bus) and
/// `gdbus` (GLib) against a private dbus-daemon, while the test's loop answers.
@MainActor
@Suite(.requires(TestEnvironment.canRunDBusTests && BusClientTool.available, "needs dbus-daemon, busctl and gdbus"))
struct ObjectServerTests {
    static let name = "org.daydream_bridge.Test"

    /// A server owning `name` with one object, `/test/thing`, under an object manager at `/test`:
    /// `Label` (s, writable), `Count` (t, read on demand), `Fixed` (s, read-only), `Echo(s) -> s`.
    @MainActor
    final class Rig: BusClientRig {
        let bus: TestBus
        let reactor: Reactor
        let server: ObjectServer
        var label = "one"
        var count: UInt64 = 7
        var busAddress: String { bus.address }

        init() throws {
            bus = try TestBus()
            reactor = try Reactor()
            let connection = try BusConnection(address: bus.address, reactor: reactor)
            server = ObjectServer(connection: connection)
            var owned = false
            connection.requestName(ObjectServerTests.name) { owned = (try? $0.get()) == .primaryOwner }
            #expect(reactor.run(until: { owned }, timeout: .seconds(5), checkingEvery: .milliseconds(5)))
            server.addObjectManager(at: "/test")
            server.add(path: "/test/thing", interfaces: [thing()])
        }

        func thing() -> ExportedInterface {
            ExportedInterface(
                name: "test.Thing1",
                methods: [ExportedMethod("Echo", arguments: [ExportedArgument("text", "s")], results: [ExportedArgument("echo", "s")]) {
                    .success($0)
                }],
                properties: [
                    ExportedProperty("Label", "s", get: { [unowned self] in .string(label) }, set: { [unowned self] value in
                        guard let text = value.string, !text.isEmpty else { return .failure(.invalidArguments("empty label")) }
                        label = text
                        return .success(())
                    }),
                    ExportedProperty("Count", "t", emitsChangedSignal: false, get: { [unowned self] in .uint64(count) }),
                    ExportedProperty("Fixed", "s", get: { .string("fixed") }),
                ])
        }

        /// `gdbus monitor` on the server's name, once it hears the server (`BusClientRig.monitor`):
        /// `Fixed` is announced until the monitor prints it.
        func monitor() throws -> (tool: BusClientTool, baseline: Int) {
            try monitor(ObjectServerTests.name, announce: { _ in
                server.propertiesChanged(path: "/test/thing", interface: "test.Thing1", names: ["Fixed"])
            }, until: "'Fixed'", owner: "server")
        }
    }

    @Test func busctlWalksTheTreeAndIntrospectsTheObject() throws {
        let rig = try Rig()
        defer { rig.bus.stop() }
        let tree = try rig.busctl("tree", "--list", Self.name)
        #expect(tree.status == 0, "\(tree.stderr)")
        #expect(tree.stdout.split(separator: "\n") == ["/", "/test", "/test/thing"])
        let introspection = try rig.busctl("introspect", Self.name, "/test/thing", "test.Thing1")
        #expect(introspection.status == 0, "\(introspection.stderr)")
        let lines = introspection.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(lines.contains(".Echo method s s -"))
        #expect(lines.contains(".Count property t 7 -"))
        #expect(lines.contains(".Fixed property s \"fixed\" emits-change"))
        #expect(lines.contains(".Label property s \"one\" emits-change writable"))
    }

    @Test func propertiesAreReadAndWrittenAndWrongWritesAreRefused() throws {
        let rig = try Rig()
        defer { rig.bus.stop() }
        #expect(try rig.busctl("get-property", Self.name, "/test/thing", "test.Thing1", "Label").stdout == "s \"one\"\n")
        let set = try rig.busctl("set-property", Self.name, "/test/thing", "test.Thing1", "Label", "s", "two")
        #expect(set.status == 0, "\(set.stderr)")
        #expect(rig.label == "two")
        #expect(try rig.gdbus("call", "--dest", Self.name, "--object-path", "/test/thing", "--method",
                              "org.freedesktop.DBus.Properties.GetAll", "test.Thing1").stdout
            == "({'Count': <uint64 7>, 'Fixed': <'fixed'>, 'Label': <'two'>},)\n")

        let wrongType = try rig.busctl("set-property", Self.name, "/test/thing", "test.Thing1", "Label", "u", "5")
        #expect(wrongType.status != 0)
        #expect(wrongType.stderr.contains("Label is of type s, not u"))
        let readOnly = try rig.busctl("set-property", Self.name, "/test/thing", "test.Thing1", "Fixed", "s", "x")
        #expect(readOnly.stderr.contains("Fixed is read-only"))
        let refused = try rig.busctl("set-property", Self.name, "/test/thing", "test.Thing1", "Label", "s", "")
        #expect(refused.stderr.contains("empty label"))
        let unknown = try rig.busctl("get-property", Self.name, "/test/thing", "test.Thing1", "Colour")
        #expect(unknown.stderr.contains("test.Thing1 has no property Colour; properties: Label, Count, Fixed"))
        #expect(rig.label == "two")
    }

    @Test func methodsAnswerAndArgumentsOfTheWrongTypeAreRefused() throws {
        let rig = try Rig()
        defer { rig.bus.stop() }
        #expect(try rig.busctl("call", Self.name, "/test/thing", "test.Thing1", "Echo", "s", "hello").stdout == "s \"hello\"\n")
        let wrong = try rig.busctl("call", Self.name, "/test/thing", "test.Thing1", "Echo", "i", "3")
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("Echo takes (s), not (i)"))
        let missing = try rig.gdbus("call", "--dest", Self.name, "--object-path", "/test/thing", "--method", "test.Thing1.Shout")
        #expect(missing.stderr.contains("UnknownMethod"))
        #expect(missing.stderr.contains("test.Thing1 has no method Shout; methods: Echo"))
    }

    @Test func theObjectManagerListsObjectsAndSignalsReachGdbusMonitor() throws {
        let rig = try Rig()
        defer { rig.bus.stop() }
        let managed = try rig.gdbus("call", "--dest", Self.name, "--object-path", "/test", "--method",
                                    "org.freedesktop.DBus.ObjectManager.GetManagedObjects")
        #expect(managed.stdout == "({objectpath '/test/thing': {'test.Thing1': {'Count': <uint64 7>, 'Fixed': <'fixed'>, 'Label': <'one'>}}},)\n")

        let monitor = try rig.monitor()
        rig.label = "three"
        rig.count = 8
        rig.server.propertiesChanged(path: "/test/thing", interface: "test.Thing1", names: ["Label", "Count"])
        rig.server.add(path: "/test/other", interfaces: [ExportedInterface(name: "test.Other1")])
        rig.server.remove(path: "/test/other")
        #expect(rig.reactor.run(until: { monitor.tool.stdout.contains("InterfacesRemoved") }, timeout: .seconds(10), checkingEvery: .milliseconds(5)))
        let signals = String(decoding: Array(monitor.tool.stdout.utf8).dropFirst(monitor.baseline), as: UTF8.self)
            .split(separator: "\n").filter { $0.hasPrefix("/test") }
        #expect(signals == [
            "/test/thing: org.freedesktop.DBus.Properties.PropertiesChanged ('test.Thing1', {'Label': <'three'>}, @as [])",
            "/test: org.freedesktop.DBus.ObjectManager.InterfacesAdded (objectpath '/test/other', {'test.Other1': @a{sv} {}})",
            "/test: org.freedesktop.DBus.ObjectManager.InterfacesRemoved (objectpath '/test/other', ['test.Other1'])",
        ], "Count is read on demand: no signal carries it")
        monitor.tool.stop()
    }
}
