@testable import DBus
import Descriptors
import EventLoop
import Foundation
import TestSupport
import Testing
import Timebase

@MainActor
@Suite(.requires(TestEnvironment.canRunDBusTests, "needs dbus-daemon, python3-dbus, python3-gi"))
struct BusConnectionTests {
    /// Two connections to `bus` that have their unique names.
    static func connectedPair(on bus: TestBus, reactor: Reactor) throws -> (server: BusConnection, client: BusConnection) {
        let server = try BusConnection(address: bus.address, reactor: reactor)
        let client = try BusConnection(address: bus.address, reactor: reactor)
        #expect(reactor.run(until: { server.uniqueName != nil && client.uniqueName != nil }, timeout: .seconds(5)))
        return (server, client)
    }

    /// A private bus, a loop, and one connection to the bus that has its unique name.
    static func connectedAlone(sourceLocation: SourceLocation = #_sourceLocation) throws
        -> (bus: TestBus, reactor: Reactor, connection: BusConnection) {
        let bus = try TestBus()
        let reactor = try Reactor()
        let connection = try BusConnection(address: bus.address, reactor: reactor)
        #expect(reactor.run(until: { connection.uniqueName != nil }, timeout: .seconds(5)), sourceLocation: sourceLocation)
        return (bus, reactor, connection)
    }

    @Test func helloGivesAUniqueNameAndCallsComplete() throws {
        let (bus, reactor, connection) = try Self.connectedAlone()
        defer { bus.stop() }
        #expect(connection.uniqueName?.hasPrefix(":") == true)
        var names: [String]?
        connection.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                        method: "ListNames") { result in names = try? result.get().first?.strings }
        #expect(reactor.run(until: { names != nil }, timeout: .seconds(5)))
        #expect(names?.contains(connection.uniqueName ?? "-") == true)
    }

    /// `close()` releases libdbus's connection object, so asking it afterwards read freed memory:
    /// here the test process crashed or hung (locking the mutex the freed block pointed to).
    /// A closed connection answers without asking libdbus.
    @Test func aClosedConnectionSaysSoWithoutTouchingLibdbus() throws {
        let (bus, reactor, connection) = try Self.connectedAlone()
        defer { bus.stop(); withExtendedLifetime(reactor) {} }
        #expect(connection.isConnected)
        connection.close()
        #expect(!connection.isConnected)
    }

    @Test func anErrorReplyCarriesItsNameAndAHint() throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let reactor = try Reactor()
        let connection = try BusConnection(address: bus.address, reactor: reactor)
        var failure: DBusError?
        connection.call(destination: "org.bluez", path: "/", interface: "org.freedesktop.DBus.ObjectManager",
                        method: "GetManagedObjects") { result in
            if case .failure(let error) = result { failure = error }
        }
        #expect(reactor.run(until: { failure != nil }, timeout: .seconds(5)))
        #expect(failure?.name == "org.freedesktop.DBus.Error.ServiceUnknown")
        #expect(failure?.description.contains("sudo systemctl start bluetooth") == true)
    }

    /// A call the peer never answers times out: libdbus handles its timeout, removes it, and frees
    /// it with the pending call. The timer used to re-arm it, so one interval later the loop handed
    /// libdbus the freed timeout (the daemon died with SIGSEGV 25 s after a BlueZ or API call timed
    /// out). The call fails with NoReply, no timer is left armed and the loop runs on past it.
    @Test func aCallThatTimesOutLeavesNoTimerOnTheFreedTimeout() throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let reactor = try Reactor()
        let (server, client) = try Self.connectedPair(on: bus, reactor: reactor)
        var asked = 0
        server.export(path: "/test/silent") { _ in
            asked += 1
            return nil
        }
        var failure: DBusError?
        let timeout = TimeSpan.milliseconds(50)
        client.call(destination: server.uniqueName ?? "", path: "/test/silent", interface: "test.Silent", method: "Wait",
                    timeout: timeout) { result in
            if case .failure(let error) = result { failure = error }
        }
        #expect(reactor.run(until: { failure != nil }, timeout: .seconds(5)))
        #expect(asked == 1)
        #expect(failure?.name == "org.freedesktop.DBus.Error.NoReply")
        #expect(client.armedTimeoutCount == 0)
        // Ten more intervals of the loop: a timer left on the freed timeout would fire in them.
        var passed = false
        let marker = reactor.schedule(after: .milliseconds(500)) { passed = true }
        #expect(reactor.run(until: { passed }, timeout: .seconds(5)))
        marker.cancel()
        #expect(client.isConnected)
    }

    @Test func exportedObjectsAnswerAndSignalsReachSubscribers() throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let reactor = try Reactor()
        let (server, client) = try Self.connectedPair(on: bus, reactor: reactor)
        server.export(path: "/test/echo") { message in
            guard message.member == "Echo" else {
                return .failure(DBusError(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no"))
            }
            return .success(message.arguments())
        }
        let nested = DBusValue.dictionary(key: "o", value: "a{sa{sv}}", [(
            .objectPath("/org/bluez/hci0"),
            .dictionary(key: "s", value: "a{sv}", [(
                .string("org.bluez.Adapter1"),
                .properties(["Powered": .boolean(true), "Address": .string("00:11:22:33:44:55"),
                             "RSSI": .int16(-60), "Value": .bytes([1, 2, 255])]))]))])
        var echoed: [DBusValue]?
        client.call(destination: server.uniqueName ?? "", path: "/test/echo", interface: "test.Echo", method: "Echo",
                    arguments: [nested, .uint32(7)]) { echoed = try? $0.get() }
        #expect(reactor.run(until: { echoed != nil }, timeout: .seconds(5)))
        let adapter = echoed?.first?.stringKeyed?["/org/bluez/hci0"]?.stringKeyed?["org.bluez.Adapter1"]?.propertyDictionary
        #expect(adapter?["Powered"]?.boolean == true)
        #expect(adapter?["Address"]?.string == "00:11:22:33:44:55")
        #expect(adapter?["RSSI"]?.integer == -60)
        #expect(adapter?["Value"]?.bytes == [1, 2, 255])
        #expect(echoed?.last?.integer == 7)
        #expect(echoed?.first?.signature == "a{oa{sa{sv}}}")

        var refused: DBusError?
        client.call(destination: server.uniqueName ?? "", path: "/test/echo", interface: "test.Echo", method: "Other") {
            if case .failure(let error) = $0 { refused = error }
        }
        #expect(reactor.run(until: { refused != nil }, timeout: .seconds(5)))
        #expect(refused?.name == "org.freedesktop.DBus.Error.UnknownMethod")

        var heard: [String] = []
        let subscription = client.subscribe(MatchRule(interface: "test.Signals", member: "Ping")) { message in
            heard.append(message.arguments().first?.string ?? "?")
        }
        // AddMatch is asynchronous: a round trip through the bus daemon makes sure it is in place.
        var synced = false
        client.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                    method: "GetId") { _ in synced = true }
        #expect(reactor.run(until: { synced }, timeout: .seconds(5)))
        if let ping = Message.signal(path: "/test", interface: "test.Signals", name: "Ping", arguments: [.string("one")]),
           let other = Message.signal(path: "/test", interface: "test.Signals", name: "Pong", arguments: [.string("no")]) {
            server.send(other)
            server.send(ping)
        }
        #expect(reactor.run(until: { !heard.isEmpty }, timeout: .seconds(5)))
        #expect(heard == ["one"])
        subscription.cancel()
    }

    @Test func fileDescriptorsPassThroughMessages() throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let reactor = try Reactor()
        let (server, client) = try Self.connectedPair(on: bus, reactor: reactor)
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0)
        let kept = FileDescriptor(owning: pair[0])
        let handedOut = UnixFileDescriptor(owning: FileDescriptor(owning: pair[1]))
        server.export(path: "/test/fd") { _ in .success([.unixFD(handedOut), .uint16(23)]) }
        var received: UnixFileDescriptor?
        client.call(destination: server.uniqueName ?? "", path: "/test/fd", interface: "test.Fd", method: "Get") {
            received = try? $0.get().first?.unixFD
        }
        #expect(reactor.run(until: { received != nil }, timeout: .seconds(5)))
        let descriptor = try #require(received?.rawValue)
        #expect(descriptor >= 0)
        let packet: [UInt8] = [0xAB, 0xCD]
        #expect(write(kept.rawValue, packet, 2) == 2)
        var buffer = [UInt8](repeating: 0, count: 8)
        #expect(read(descriptor, &buffer, 8) == 2)
        #expect(Array(buffer[0..<2]) == packet)
    }

    @Test func invalidObjectPathsAreRefusedBeforeLibdbusSeesThem() {
        #expect(Message.methodCall(destination: "org.bluez", path: "not/a/path", interface: "a.b", method: "C") == nil)
        #expect(Message.methodCall(destination: "org.bluez", path: "/org/bluez", interface: "a.b", method: "C",
                                   arguments: [.objectPath("/bad-path")]) == nil)
        #expect(ObjectPath.isValid("/org/bluez/hci0/dev_C0_DD_EE_00_00_01"))
        #expect(!ObjectPath.isValid("/org//bluez"))
    }
}
