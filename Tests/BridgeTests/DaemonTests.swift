@testable import Bridge
import BridgeConfig
import Daydream
import DSU
import DSUServer
import DaydreamProtocol
import Descriptors
import EventLoop
import EventVocabulary
import Foundation
import Mapping
import Testing
import Timebase
import VirtualDevice

/// A controller's devices in memory: every event checked by a recording `VirtualDeviceSet` (the
/// devices' own rules) and kept, in order, with the devices' generation (a reload that cannot fit
/// them in place makes new ones). A reload fits the recording set in place, as it fits uinput
/// devices, unless `fitsInPlace` is off.
/// When the daemon attaches them to the controller's feed (as it does a DualSense), they also
/// note each packet with how many events they had been sent by then.
@MainActor
final class TestDeviceOutput: @MainActor OutputSink, ControllerConsumer {
    let sink: VirtualDeviceSet
    let generation: Int
    let fitsInPlace: Bool
    var label: String
    var events: [OutputEvent] = []
    var refused: [VirtualDeviceError] = []
    var packets: [(packet: DaydreamPacket, eventsBefore: Int)] = []

    init(configuration: MappingConfiguration, label: String, generation: Int, fitsInPlace: Bool = true) throws(VirtualDeviceError) {
        sink = try VirtualDeviceSet.recording(capabilities: configuration.capabilities, gamepadIdentity: configuration.gamepadIdentity)
        self.label = label
        self.generation = generation
        self.fitsInPlace = fitsInPlace
    }

    func fitted(to capabilities: Capabilities, gamepadIdentity: GamepadIdentity) throws(VirtualDeviceError) -> DeviceRefit? {
        guard fitsInPlace else { return nil }
        return try sink.refit(capabilities: capabilities, gamepadIdentity: gamepadIdentity)
    }

    func send(_ events: UnsafeBufferPointer<OutputEvent>, at time: MonotonicTime) {
        self.events += events
        do { try sink.send(events, at: time) } catch { refused.append(error) }
    }

    func releaseAll(at time: MonotonicTime) {
        let before = sink.events.count
        do { try sink.releaseAll() } catch { refused.append(error) }
        events += sink.events[before...]
    }

    var summary: [String] { ["test devices \(generation)"] }

    func receive(_ packet: DaydreamPacket, at time: MonotonicTime) { packets.append((packet, events.count)) }
    func linkChanged(connected: Bool, at time: MonotonicTime) {}

    /// True when every device is at rest (nothing down, every axis centred).
    var atRest: Bool { sink.kinds.allSatisfy { sink.state($0)?.isAtRest == true } }

    var lines: [String] { events.map(EventCodeNames.line) }
}

/// The daemon in-process: devices per controller, no stuck input, reload, profiles, the control socket.
@Suite("daemon", .serialized)
@MainActor
struct DaemonTests {
    static let twoProfiles = """
    [bridge]
    profile = "pad"

    [profile.pad]
    click = "BTN_SOUTH"
    app = "BTN_EAST"
    touchpad = { mode = "stick" }

    [profile.keys]
    click = "KEY_ENTER"
    app = "KEY_ESC"
    """

    static let otherProfiles = """
    [profile.pad]
    click = "BTN_WEST"
    app = "BTN_EAST"
    touchpad = { mode = "stick" }

    [profile.arrows]
    click = "KEY_UP"
    app = "KEY_DOWN"
    """

    @MainActor
    final class Harness {
        let reactor: Reactor
        let directory: String
        let configPath: String
        var outputs: [TestDeviceOutput] = []
        var daemon: BridgeDaemon!
        /// Whether the devices follow the feed too, as a DualSense does.
        let devicesFollowFeed: Bool
        /// Whether a reload fits the devices in place (else it makes new ones).
        let fitsInPlace: Bool
        var logged: [String] = []
        let savedLogger: (sink: (String) -> Void, style: LogStyle, threshold: LogPriority)

        init(
            config: String = DaemonTests.twoProfiles, profile: String? = nil, devicesFollowFeed: Bool = false, fitsInPlace: Bool = true
        ) throws {
            reactor = try Reactor()
            self.devicesFollowFeed = devicesFollowFeed
            self.fitsInPlace = fitsInPlace
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("daydream-daemon-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            configPath = directory + "/config.toml"
            try config.write(toFile: configPath, atomically: false, encoding: .utf8)
            savedLogger = (Logger.sink, Logger.style, Logger.threshold)
            Logger.sink = { [unowned self] in self.logged.append($0) }
            Logger.style = .journal
            Logger.threshold = .debug
            let loaded = try ConfigLoader.load(.file(configPath))
            daemon = try BridgeDaemon(loaded: loaded, profile: profile, reactor: reactor) { [unowned self] configuration, label throws(VirtualDeviceError) in
                let output = try TestDeviceOutput(
                    configuration: configuration, label: label, generation: self.outputs.count, fitsInPlace: self.fitsInPlace)
                self.outputs.append(output)
                return ControllerDevices(sink: output, stateConsumers: self.devicesFollowFeed ? [output] : [])
            }
        }

        func finish() {
            daemon.shutdown()
            (Logger.sink, Logger.style, Logger.threshold) = savedLogger
            try? FileManager.default.removeItem(atPath: directory)
        }

        /// A controller's feed, as a source hands it over: added, then connected.
        func controller(_ address: String = "C0:DD:EE:00:00:01") -> ControllerFeed {
            let feed = ControllerFeed(address: address)
            daemon.add(feed)
            feed.linkChanged(connected: true, at: reactor.now)
            return feed
        }

        /// One packet through the feed, as its 20 bytes, as the link hands them over.
        func send(_ feed: ControllerFeed, _ buttons: DaydreamButtons, touch: (UInt16, UInt16)? = nil) {
            let packet = DaydreamPacket(touchX: touch?.0 ?? 0, touchY: touch?.1 ?? 0, buttons: buttons)
            var bytes = PacketBytes()
            bytes.withUnsafeMutableBytes { packet.encode(into: $0) }
            bytes.withUnsafeBytes { feed.receive($0, at: reactor.now) }
        }
    }

    @Test func devicesAreMadeAtStartAndTheFirstControllerTakesThem() throws {
        let harness = try Harness()
        defer { harness.finish() }
        #expect(harness.outputs.count == 1)
        let first = harness.controller()
        #expect(harness.outputs.count == 1)
        #expect(harness.outputs[0].label == "C0:DD:EE:00:00:01")
        harness.send(first, .click)
        #expect(harness.outputs[0].lines == ["gamepad EV_KEY BTN_SOUTH 1", "gamepad EV_SYN SYN_REPORT 0"])
        // A second controller gets its own devices; its events go there only.
        let second = harness.controller("C0:DD:EE:00:00:02")
        #expect(harness.outputs.count == 2)
        harness.send(second, .app)
        #expect(harness.outputs[1].lines == ["gamepad EV_KEY BTN_EAST 1", "gamepad EV_SYN SYN_REPORT 0"])
        #expect(harness.outputs[0].events.count == 2)
        #expect(harness.daemon.statusLines == ["C0:DD:EE:00:00:01: pad, connected", "C0:DD:EE:00:00:02: pad, connected"])
    }

    @Test func aDisconnectReleasesEverythingAndTheDevicesStay() throws {
        let harness = try Harness()
        defer { harness.finish() }
        let controller = harness.controller()
        harness.send(controller, [.click, .app], touch: (250, 128))
        let output = harness.outputs[0]
        #expect(!output.atRest)
        controller.linkChanged(connected: false, at: harness.reactor.now)
        #expect(output.atRest)
        // One frame releases both buttons and centres the stick (in whatever order), then SYN_REPORT.
        #expect(Set(output.lines.suffix(5).dropLast()) == [
            "gamepad EV_KEY BTN_SOUTH 0", "gamepad EV_KEY BTN_EAST 0", "gamepad EV_ABS ABS_X 0", "gamepad EV_ABS ABS_Y 0",
        ])
        #expect(output.lines.last == "gamepad EV_SYN SYN_REPORT 0")
        #expect(output.refused.isEmpty)
        // It comes back on a new feed (a new bus connection): the same devices, the same session,
        // which no longer hears the old feed; the click still held stays released.
        let again = ControllerFeed(address: "C0:DD:EE:00:00:01")
        harness.daemon.add(again)
        again.linkChanged(connected: true, at: harness.reactor.now)
        #expect(harness.outputs.count == 1)
        #expect(controller.consumerCount == 0)
        let count = output.events.count
        harness.send(again, .click)
        harness.send(controller, .app)
        #expect(output.events.count == count)
        harness.send(again, [])
        harness.send(again, .click)
        #expect(output.lines.suffix(2) == ["gamepad EV_KEY BTN_SOUTH 1", "gamepad EV_SYN SYN_REPORT 0"])
    }

    @Test func theDaemonsPathRunsNoModelAndSchedulesNoLongPressTimer() throws {
        let harness = try Harness()
        defer { harness.finish() }
        let feed = harness.controller()
        let before = harness.reactor.pendingTimerCount
        // Plain bindings, held: the engine has no deadline, and nothing else may set one. (A press
        // let go within the tap time would set one: the engine's release of it, a tap time on.)
        harness.send(feed, .click)
        harness.send(feed, [.click, .app])
        #expect(harness.outputs[0].lines.suffix(2) == ["gamepad EV_KEY BTN_EAST 1", "gamepad EV_SYN SYN_REPORT 0"])
        #expect(harness.reactor.pendingTimerCount == before)
        #expect(feed.consumerCount == 1)
        // The count does see a model's timers: a library model on the same feed sets one per button
        // it sees pressed, and the session goes on getting every packet beside it.
        let model = DDController(address: feed.address, scheduler: harness.reactor)
        model.follow(feed)
        let lines = harness.outputs[0].lines.count
        harness.send(feed, [.click, .app])
        #expect(harness.reactor.pendingTimerCount == before + 2)
        #expect(model.clickButton.isPressed && model.appButton.isPressed)
        #expect(harness.outputs[0].lines.count == lines)  // the same buttons: nothing new for the session
        feed.detach(model)
    }

    @Test func aProfileSwitchReleasesFirst() throws {
        let harness = try Harness()
        defer { harness.finish() }
        let controller = harness.controller()
        harness.send(controller, .click)
        let reply = ControlReply(harness.daemon.perform(.switchProfile("keys", controller: nil)))
        #expect(reply.succeeded)
        #expect(reply.details == ["C0:DD:EE:00:00:01: keys, connected"])
        let output = harness.outputs[0]
        #expect(output.lines.suffix(2) == ["gamepad EV_KEY BTN_SOUTH 0", "gamepad EV_SYN SYN_REPORT 0"])
        #expect(output.atRest)
        harness.send(controller, [])
        harness.send(controller, .click)
        #expect(output.lines.suffix(2) == ["keyboard EV_KEY KEY_ENTER 1", "keyboard EV_SYN SYN_REPORT 0"])
        let unknown = ControlReply(harness.daemon.perform(.switchProfile("kees", controller: nil)))
        #expect(!unknown.succeeded)
        #expect(unknown.message == "no profile 'kees'; profiles: pad, keys")
        #expect(!ControlReply(harness.daemon.perform(.switchProfile("pad", controller: "00:11:22:33:44:55"))).succeeded)
    }

    @Test func cyclingGoesToTheNextProfileAndNewControllersFollow() throws {
        let harness = try Harness()
        defer { harness.finish() }
        let first = harness.controller()
        #expect(ControlReply(harness.daemon.perform(.nextProfile(controller: nil))).details == ["C0:DD:EE:00:00:01: keys, connected"])
        let second = harness.controller("C0:DD:EE:00:00:02")
        #expect(harness.daemon.statusLines.last == "C0:DD:EE:00:00:02: keys, connected")
        #expect(ControlReply(harness.daemon.perform(.nextProfile(controller: nil))).details.first == "C0:DD:EE:00:00:01: pad, connected")
        withExtendedLifetime((first, second)) {}
    }

    /// Devices that cannot change in place (`fitted` says nil: a DualSense that is no longer
    /// one, another identity) are all made anew.
    @Test func aReloadReleasesFirstAndKeepsTheDevicesWhenTheyFit() throws {
        let harness = try Harness(fitsInPlace: false)
        defer { harness.finish() }
        let controller = harness.controller()
        harness.send(controller, .click)
        try Self.otherProfiles.replacingOccurrences(of: "BTN_WEST", with: "BTN_SOUTH")
            .save(toFile: harness.configPath)
        harness.daemon.perform(.reload)
        let output = harness.outputs[0]
        #expect(harness.outputs.count == 2) // capabilities changed (KEY_UP, KEY_DOWN): new devices
        #expect(output.atRest)
        #expect(output.lines.suffix(2) == ["gamepad EV_KEY BTN_SOUTH 0", "gamepad EV_SYN SYN_REPORT 0"])
        #expect(harness.daemon.configuration.profiles.map(\.name) == ["pad", "arrows"])
        #expect(harness.daemon.statusLines == ["C0:DD:EE:00:00:01: pad, connected"])
        // The new session took the old one's place on the feed: one consumer, nothing on the old devices.
        #expect(controller.consumerCount == 1)
        let oldCount = output.events.count
        harness.send(controller, [])
        harness.send(controller, .click)
        #expect(harness.outputs[1].lines == ["gamepad EV_KEY BTN_SOUTH 1", "gamepad EV_SYN SYN_REPORT 0"])
        #expect(output.events.count == oldCount)
        // The same devices fit the next config (BTN_SOUTH stays as the gamepad's mark): they are kept,
        // the held click is released on them first, and the new mapping takes over.
        try Self.otherProfiles.replacingOccurrences(of: "BTN_WEST", with: "BTN_EAST")
            .save(toFile: harness.configPath)
        harness.daemon.perform(.reload)
        #expect(harness.outputs.count == 2)
        #expect(harness.outputs[1].lines.suffix(2) == ["gamepad EV_KEY BTN_SOUTH 0", "gamepad EV_SYN SYN_REPORT 0"])
        harness.send(controller, [])
        harness.send(controller, .click)
        #expect(harness.outputs[1].lines.suffix(2) == ["gamepad EV_KEY BTN_EAST 1", "gamepad EV_SYN SYN_REPORT 0"])
    }

    /// Devices that take the controller's state (a DualSense's motion and touchpad) hear it from
    /// the feed, as the session and a DSU slot do: each packet after the session wrote that
    /// packet's events, from the same decode. A reload that replaces the devices moves the feed
    /// to the new ones; a new feed (a reconnection) takes both the session and the devices.
    @Test func devicesThatFollowTheFeedHearEachPacketAfterItsEvents() throws {
        let harness = try Harness(devicesFollowFeed: true, fitsInPlace: false)
        defer { harness.finish() }
        let controller = harness.controller()
        #expect(controller.consumerCount == 2)
        harness.send(controller, .click, touch: (10, 20))
        let output = harness.outputs[0]
        #expect(output.packets.map(\.packet) == [DaydreamPacket(touchX: 10, touchY: 20, buttons: .click)])
        #expect(output.packets.map(\.eventsBefore) == [output.events.count], "after the session's frame")
        #expect(controller.statistics.received == 1, "decoded and counted once for both")
        let malformed: [UInt8] = [1, 2, 3]
        malformed.withUnsafeBytes { controller.receive($0, at: harness.reactor.now) }
        #expect(controller.statistics.malformed == 1)
        #expect(output.packets.count == 1, "what is not a packet reaches no consumer")
        // New devices for the new config: they follow the feed, the old ones no longer do.
        try Self.otherProfiles.save(toFile: harness.configPath)
        harness.daemon.perform(.reload)
        try #require(harness.outputs.count == 2)
        #expect(controller.consumerCount == 2)
        harness.send(controller, .app)
        #expect(output.packets.count == 1)
        #expect(harness.outputs[1].packets.map(\.packet) == [DaydreamPacket(buttons: .app)])
        // A reconnection on a new feed: the old one keeps nobody.
        let again = ControllerFeed(address: controller.address)
        harness.daemon.add(again)
        #expect(controller.consumerCount == 0)
        #expect(again.consumerCount == 2)
    }

    static let padOnly = """
    [profile.pad]
    click = "BTN_SOUTH"
    touchpad = { mode = "stick" }
    """

    /// The devices made at start wait for the first controller: a reload before it arrives fits
    /// them too, so the controller that takes them has the keyboard its new binding needs.
    @Test func aReloadBeforeTheFirstControllerFitsTheDevicesWaitingForIt() throws {
        let harness = try Harness(config: Self.padOnly)
        defer { harness.finish() }
        let output = harness.outputs[0]
        try (Self.padOnly + "\napp = \"KEY_ESC\"\n").save(toFile: harness.configPath)
        harness.daemon.perform(.reload)
        let controller = harness.controller()
        harness.send(controller, .app)
        let devices = harness.outputs.last ?? output
        #expect(devices.lines.suffix(2) == ["keyboard EV_KEY KEY_ESC 1", "keyboard EV_SYN SYN_REPORT 0"], "\(devices.lines)")
        #expect(devices.refused.isEmpty, "\(devices.refused)")
    }

    /// A reload that adds a keyboard binding keeps the gamepad (the same device, nothing pressed
    /// again on it while the button stays held) and adds the keyboard beside it.
    @Test func aHeldGamepadButtonStaysOnTheSamePadAcrossAReloadThatAddsAKeyboard() throws {
        let harness = try Harness(config: Self.padOnly)
        defer { harness.finish() }
        let controller = harness.controller()
        let output = harness.outputs[0]
        #expect(output.sink.kinds == [.gamepad])
        harness.send(controller, .click)
        try (Self.padOnly + "\napp = \"KEY_ESC\"\n").save(toFile: harness.configPath)
        harness.daemon.perform(.reload)
        #expect(harness.outputs.count == 1, "no new devices")
        #expect(output.sink.kinds == [.gamepad, .keyboard])
        #expect(harness.logged.contains("<5>C0:DD:EE:00:00:01: keyboard: added for the new config\n"))
        #expect(!harness.logged.contains { $0.contains("gamepad: made again") || $0.contains("devices replaced") })
        // Still held, then the new binding with it: the keyboard takes it, the pad is not pressed again.
        harness.send(controller, .click)
        harness.send(controller, [.click, .app])
        let gamepad = output.lines.filter { $0.hasPrefix("gamepad ") }
        #expect(gamepad.filter { $0.hasSuffix("BTN_SOUTH 1") } == ["gamepad EV_KEY BTN_SOUTH 1"], "\(gamepad)")
        #expect(output.lines.suffix(2) == ["keyboard EV_KEY KEY_ESC 1", "keyboard EV_SYN SYN_REPORT 0"])
        #expect(output.refused.isEmpty)
    }

    /// A reload that changes the gamepad's codes makes it again, with the held button released first.
    @Test func aReloadThatChangesTheGamepadsCodesReleasesThenRemakesIt() throws {
        let harness = try Harness(config: Self.padOnly)
        defer { harness.finish() }
        let controller = harness.controller()
        let output = harness.outputs[0]
        harness.send(controller, .click)
        try Self.padOnly.replacingOccurrences(of: "BTN_SOUTH", with: "BTN_WEST").save(toFile: harness.configPath)
        harness.daemon.perform(.reload)
        #expect(harness.logged.contains { $0.hasSuffix("gamepad: made again for the new config (its codes or identity changed)\n") })
        #expect(output.lines == [
            "gamepad EV_KEY BTN_SOUTH 1", "gamepad EV_SYN SYN_REPORT 0", "gamepad EV_KEY BTN_SOUTH 0", "gamepad EV_SYN SYN_REPORT 0",
        ])
        #expect(output.atRest)
        harness.send(controller, [])
        harness.send(controller, .click)
        #expect(output.lines.suffix(2) == ["gamepad EV_KEY BTN_WEST 1", "gamepad EV_SYN SYN_REPORT 0"])
        #expect(output.refused.isEmpty)
    }

    @Test func aBrokenConfigKeepsTheRunningOneAndSaysWhy() throws {
        let harness = try Harness()
        defer { harness.finish() }
        let controller = harness.controller()
        try "[profile.pad]\nclick = \"BTN_SOTH\"\n".save(toFile: harness.configPath)
        harness.daemon.perform(.reload)
        #expect(harness.daemon.configuration.profiles.map(\.name) == ["pad", "keys"])
        let warning = try #require(harness.logged.first { $0.hasPrefix("<4>the new config has errors") })
        #expect(warning.contains("<4>\(harness.configPath):2:9: error:"))
        #expect(warning.contains("BTN_SOUTH"))
        harness.send(controller, .click)
        #expect(harness.outputs[0].lines.suffix(2) == ["gamepad EV_KEY BTN_SOUTH 1", "gamepad EV_SYN SYN_REPORT 0"])
        #expect(harness.outputs.count == 1)
    }

    @Test func savingTheConfigReloadsThroughTheWatcher() throws {
        let harness = try Harness()
        defer { harness.finish() }
        try harness.daemon.start(controlSocket: nil)
        _ = harness.controller()
        try Self.otherProfiles.save(toFile: harness.configPath)
        let reloaded = harness.reactor.run(until: { harness.daemon.configuration.profile(named: "arrows") != nil }, timeout: .seconds(3))
        #expect(reloaded)
        #expect(harness.logged.contains { $0.contains("changed: reloading") })
    }

    @Test func shutdownReleasesEverythingAndDropsTheDevices() throws {
        let harness = try Harness()
        defer { harness.finish() }
        let controller = harness.controller()
        harness.send(controller, [.click, .app], touch: (30, 30))
        let output = harness.outputs[0]
        harness.daemon.shutdown()
        #expect(output.atRest)
        #expect(output.lines.last == "gamepad EV_SYN SYN_REPORT 0")
        #expect(harness.daemon.statusLines.isEmpty)
        // A packet after shutdown goes nowhere.
        let count = output.events.count
        harness.send(controller, .click)
        #expect(output.events.count == count)
    }

    @Test func theControlSocketAnswers() throws {
        let harness = try Harness()
        defer { harness.finish() }
        let path = harness.directory + "/run/control"
        try harness.daemon.start(controlSocket: path)
        let controller = harness.controller()
        defer { withExtendedLifetime(controller) {} }
        let replies = Replies()
        let requests: [ControlRequest] = [.status, .profile(name: "keys", address: nil), .profile(name: "nope", address: nil), .nextProfile(address: "C0:DD:EE:00:00:01"), .dsu]
        Thread.detachNewThread {
            for request in requests {
                replies.append(Result { try ControlClient.send(request, to: path) })
            }
        }
        // The client thread cannot wake the loop, so it turns in short steps.
        let end = Date().addingTimeInterval(5)
        while replies.count < requests.count, Date() < end { harness.reactor.runOnce(timeout: .milliseconds(10)) }
        #expect(replies.count == requests.count)
        let texts = replies.all.map { (try? $0.get()).map { $0.text } ?? "failed" }
        #expect(texts == [
            "ok\nC0:DD:EE:00:00:01: pad, connected\n",
            "ok\nC0:DD:EE:00:00:01: keys, connected\n",
            "error: no profile 'nope'; profiles: pad, keys\n",
            "ok\nC0:DD:EE:00:00:01: pad, connected\n",
            "ok\nDSU off\n",
        ])
        var mode = stat()
        #expect(stat(path, &mode) == 0 && mode.st_mode & 0o777 == 0o660)
        // A second daemon on the same socket is refused while this one listens.
        #expect(ControlClient.isAnswering(path))
        #expect(throws: ControlSocketError.self) { try ControlServer(path: path, reactor: harness.reactor) { _ in .ok() } }
        harness.daemon.shutdown()
        #expect(access(path, F_OK) != 0)
    }

    /// With a DSU server on loopback, `dsu` answers with its address and what it dropped (a
    /// datagram too short to be a request, sent from a plain UDP socket).
    @Test func theControlSocketAnswersWithTheDSUServer() throws {
        let harness = try Harness()
        defer { harness.finish() }
        let server = try DSUServer(listeningOn: DSUListenAddress(octets: [127, 0, 0, 1], port: 0), reactor: harness.reactor)
        harness.daemon.dsuServer = server
        let opened = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(opened >= 0)
        let sender = FileDescriptor(owning: opened)
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        target.sin_port = server.address.port.bigEndian
        let sent = withUnsafePointer(to: &target) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(sender.rawValue, "DSUC", 4, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(sent == 4)
        #expect(harness.reactor.run(until: { server.statistics.dropped.total == 1 }, timeout: .seconds(5)))
        let path = harness.directory + "/run/control"
        try harness.daemon.start(controlSocket: path)
        let replies = Replies()
        Thread.detachNewThread { replies.append(Result { try ControlClient.send(.dsu, to: path) }) }
        let end = Date().addingTimeInterval(5)
        while replies.count < 1, Date() < end { harness.reactor.runOnce(timeout: .milliseconds(10)) }
        let text = replies.all.first.flatMap { try? $0.get() }?.text
        #expect(text == "ok\n127.0.0.1:\(server.address.port): 0 clients, dropped short=1, evicted 0, refused 0\n")
    }
}

/// Replies collected on the client thread.
final class Replies: @unchecked Sendable {
    private let lock = NSLock()
    private var replies: [Result<ControlReply, any Error>] = []

    func append(_ reply: Result<ControlReply, any Error>) {
        lock.lock()
        replies.append(reply)
        lock.unlock()
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return replies.count
    }

    var all: [Result<ControlReply, any Error>] {
        lock.lock()
        defer { lock.unlock() }
        return replies
    }
}
