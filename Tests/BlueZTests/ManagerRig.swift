import BlueZ
import DBus
@testable import DaydreamCore
import EventLoop
import Foundation
import TestSupport
import Testing
import Timebase

/// A private bus, the fake bluetoothd with one adapter, and a manager on a loop.
@MainActor
final class ManagerRig {
    static let first = "C0:DD:EE:00:00:01"
    static let second = "C0:DD:EE:00:00:02"
    static let speaker = "AA:00:00:00:00:09"
    /// Flat on a table, no button.
    static let restPacket = "5BEBFFB825FDB000041000B00000000000000000"
    /// Volume up held.
    static let volumeUpPacket = "26F80361C2002002C40FFE400000000000001011"

    let bus: TestBus
    let reactor: Reactor
    let fake: FakeBlueZ
    let manager: DaydreamControllerManager
    var problems: [DaydreamControllerManager.Problem] = []
    /// Every line the manager logged, through the sink the rig gave it.
    let log = LogLines()
    var sightings: [String] = []
    var events: [String] = []

    init(policy: DaydreamControllerManager.ConnectionPolicy = .pairedOnly, adapter: [String: Any]? = [:],
         devices: [[String: Any]] = [], maximumReconnectDelay: TimeSpan = .milliseconds(200),
         configure: (inout DaydreamControllerManager.Options) -> Void = { _ in }) throws {
        let bus = try TestBus()
        self.bus = bus
        do {
            reactor = try Reactor()
            fake = try FakeBlueZ(busAddress: bus.address, reactor: reactor)
        } catch {
            bus.stop()
            throw error
        }
        do {
            if let adapter { try fake.command("add_adapter", adapter) }
            for device in devices { try fake.command("add_device", device) }
        } catch {
            fake.stop()
            bus.stop()
            throw error
        }
        var options = DaydreamControllerManager.Options(policy: policy)
        options.reconnectDelay = .milliseconds(40)
        options.maximumReconnectDelay = maximumReconnectDelay
        // The fake sends only what a test asks for: no silence is a stall unless a test says so.
        options.silenceTimeout = .seconds(60)
        configure(&options)
        manager = DaydreamControllerManager(
            reactor: reactor, connection: try BusConnection(address: bus.address, reactor: reactor), options: options, log: log.sink)
        manager.problemHandler = { [unowned self] in problems.append($0) }
        manager.controllerSighted = { [unowned self] in sightings.append($0.address) }
        manager.controllerAdded = { [unowned self] in events.append("added \($0.address)") }
        manager.controllerConnected = { [unowned self] in events.append("connected \($0.address)") }
        manager.controllerDisconnected = { [unowned self] in events.append("disconnected \($0.address)") }
    }

    /// Lines logged through `sink`, kept in order.
    @MainActor final class LogLines {
        private(set) var lines: [String] = []
        var sink: LogSink { LogSink(level: .debug) { [weak self] _, line in self?.lines.append(line) } }
    }

    static func controller(_ address: String, paired: Bool = true, _ extra: [String: Any] = [:]) -> [String: Any] {
        var device: [String: Any] = ["address": address, "name": "Daydream controller", "paired": paired,
                                     "uuids": ["0000fe55-0000-1000-8000-00805f9b34fb", "0000fef5-0000-1000-8000-00805f9b34fb"]]
        device.merge(extra) { _, new in new }
        return device
    }

    /// Runs the loop until `condition` holds; throws after 5 s.
    func wait(_ what: String, _ condition: () -> Bool) throws {
        guard reactor.run(until: condition, timeout: .seconds(5)) else { throw TestFailure("timed out waiting for \(what)") }
    }

    /// Starts the manager and waits until `address` streams.
    func connected(_ address: String) throws -> DDController {
        manager.start()
        try wait("\(address) to connect") { manager.controller(address: address)?.isConnected == true }
        guard let controller = manager.controller(address: address) else { throw TestFailure("no controller") }
        return controller
    }

    /// A round trip to the fake on the manager's connection: every signal the
    /// fake sent before has been handled when it returns.
    func sync() throws {
        var done = false
        manager.client.call("/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects") { _ in done = true }
        try wait("a round trip") { done }
    }

    func send(_ address: String, _ hex: String) throws {
        let path = try fake.command("send", ["address": address, "hex": hex]) as? String
        guard path == "socket" || path == "signal" else { throw TestFailure("the fake dropped the packet: \(path ?? "?")") }
    }

    func stop() {
        manager.stop()
        // Every test through the rig drives the real state machines: none may have met an event it has no edge for.
        #expect(!log.lines.contains { $0.contains("bug: no transition") }, "\(log.lines.filter { $0.contains("bug:") })")
        fake.stop()
        bus.stop()
    }
}

/// Collects notifications posted on the main thread.
@MainActor
final class NotificationRecorder {
    private(set) var names: [String] = []
    private var tokens: [any NSObjectProtocol] = []

    init(_ names: [Notification.Name]) {
        for name in names {
            tokens.append(NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { [weak self] note in
                let name = note.name.rawValue
                nonisolated(unsafe) let object = note.object
                MainActor.assumeIsolated {
                    self?.names.append("\(name) \((object as? DDController)?.address ?? "?")")
                }
            })
        }
    }

    func stop() {
        for token in tokens { NotificationCenter.default.removeObserver(token) }
    }
}
