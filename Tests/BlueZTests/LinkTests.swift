import BlueZ
import DBus
@testable import DaydreamCore
import EventLoop
import Foundation
import TestSupport
import Testing
import Timebase

/// The link's judgement of the stream (Connected=false, silence, timeouts), its
/// backoff, and its notify sessions, against the fake bluetoothd.
@MainActor
@Suite(.serialized, .requires(TestEnvironment.canRunDBusTests, "needs dbus-daemon, python3-dbus, python3-gi"))
struct LinkTests {
    typealias Rig = ManagerRig
    static let device = "/org/bluez/hci0/dev_C0_DD_EE_00_00_01"
    static let input = device + "/service0014/char0015"

    func calls(_ rig: Rig, _ prefix: String) throws -> [String] {
        try rig.fake.log().filter { $0.hasPrefix(prefix + " ") }
    }

    /// Sends `packet` (rest by default) every 40 ms until `condition` holds; throws after 5 s.
    func stream(_ rig: Rig, _ packet: String = Rig.restPacket, until what: String, _ condition: () -> Bool) throws {
        let end = rig.reactor.now + .seconds(5)
        while !condition() {
            guard rig.reactor.now < end else { throw TestFailure("timed out streaming until \(what)") }
            _ = try rig.fake.command("send", ["address": Rig.first, "hex": packet])
            _ = rig.reactor.run(until: condition, timeout: .milliseconds(40))
        }
    }

    @Test func connectedFalseWhileTheSocketDeliversReleasesAtOnceAndKeepsTheStream() throws {
        // bluetoothd (after a restart) can drop its connected flag while the link lives.
        let rig = try Rig(devices: [Rig.controller(Rig.first)]) { $0.silenceTimeout = .seconds(1) }
        defer { rig.stop() }
        let controller = try rig.connected(Rig.first)
        try rig.send(Rig.first, Rig.volumeUpPacket)
        try rig.wait("the press") { controller.volumeUpButton.isPressed }
        try rig.fake.command("set_property", ["path": Self.device, "interface": "org.bluez.Device1",
                                              "name": "Connected", "value": false])
        try rig.wait("the release") { !controller.volumeUpButton.isPressed && !controller.isConnected }
        try stream(rig, until: "the stream resumes") { controller.isConnected }
        try rig.sync()
        // The same socket: no second Connect or AcquireNotify, the socket never closed.
        #expect(try calls(rig, "Connect").count == 1)
        #expect(try calls(rig, "AcquireNotify").count == 1)
        #expect(try !rig.fake.log().contains { $0.hasPrefix("notify socket closed") })
        #expect(rig.events.prefix(4) == ["added \(Rig.first)", "connected \(Rig.first)", "disconnected \(Rig.first)",
                                         "connected \(Rig.first)"])
        try stream(rig, Rig.volumeUpPacket, until: "packets again") { controller.volumeUpButton.isPressed }
        // BlueZ's flag stays down: another property changing is no new disconnect.
        try rig.fake.command("set_property", ["path": Self.device, "interface": "org.bluez.Device1",
                                              "name": "RSSI", "value": -42, "type": "n"])
        try rig.sync()
        #expect(controller.isConnected)
        #expect(rig.events.filter { $0.hasPrefix("disconnected") }.count == 1, "\(rig.events)")
    }

    @Test func connectedFalseAndThenSilenceEndsTheStreamAndConnectsAgain() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first)]) { $0.silenceTimeout = .milliseconds(500) }
        defer { rig.stop() }
        let controller = try rig.connected(Rig.first)
        try rig.fake.command("set_property", ["path": Self.device, "interface": "org.bluez.Device1",
                                              "name": "Connected", "value": false])
        try rig.wait("the release") { !controller.isConnected }
        try rig.wait("the socket closed") { (try? rig.fake.log().contains { $0.hasPrefix("notify socket closed") }) == true }
        try rig.wait("the reconnect") { controller.isConnected }
        #expect(try calls(rig, "Connect").count >= 2)
    }

    @Test func aSilentStreamReleasesAndResumesWithItsNextNotification() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first)]) { $0.silenceTimeout = .milliseconds(200) }
        defer { rig.stop() }
        let controller = try rig.connected(Rig.first)
        try rig.send(Rig.first, Rig.volumeUpPacket)
        try rig.wait("the press") { controller.volumeUpButton.isPressed }
        // Nothing more: the button must not stay down.
        try rig.wait("the release") { !controller.volumeUpButton.isPressed && !controller.isConnected }
        // No timer runs meanwhile: the loop sleeps until the stream goes on.
        #expect(rig.reactor.pendingTimerCount == 0)
        try stream(rig, until: "the stream goes on") { controller.isConnected }
        try stream(rig, Rig.volumeUpPacket, until: "packets again") { controller.volumeUpButton.isPressed }
        // The same socket all along.
        #expect(try calls(rig, "AcquireNotify").count == 1)
    }

    /// The states the link went through, from its debug lines.
    func transitions(_ rig: Rig) -> [String] {
        rig.log.lines.filter { $0.hasPrefix("\(Rig.first): ") && $0.contains(" -> ") }.map { String($0.dropFirst(Rig.first.count + 2)) }
    }

    @Test func theLinkGoesThroughItsNamedStatesOverTheBus() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first)]) { $0.silenceTimeout = .milliseconds(200) }
        defer { rig.stop() }
        let controller = try rig.connected(Rig.first)
        try rig.wait("the silence") { !controller.isConnected }
        try stream(rig, until: "the stream goes on") { controller.isConnected }
        // BlueZ reports the link down and nothing more arrives: the link is lost and made again.
        try rig.fake.command("set_property", ["path": Self.device, "interface": "org.bluez.Device1",
                                              "name": "Connected", "value": false])
        try rig.wait("the release") { !controller.isConnected }
        try rig.wait("the reconnect") { controller.isConnected }
        let attempt = [
            "idle -> connecting on connect",
            "connecting -> resolving on connected",
            "resolving -> subscribing on services resolved",
            "subscribing -> subscribing (requested) on subscription requested",
            "subscribing (requested) -> streaming on subscribed",
        ]
        let expected = attempt + [
            "streaming -> silent on silence",
            "silent -> streaming on notification while interrupted",
            "streaming -> reported down on reported down",
            "reported down -> idle on lost",
            "idle -> idle (retry pending) on retry scheduled",
            "idle (retry pending) -> idle on retry due",
        ] + attempt
        #expect(transitions(rig) == expected)
    }

    @Test(arguments: [false, true])
    func theNotificationThatEndsASilenceIsDelivered(startNotify: Bool) throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first)]) { $0.silenceTimeout = .milliseconds(200) }
        defer { rig.stop() }
        if startNotify {
            try rig.fake.command("configure", ["address": Rig.first, "refuse_acquire": "org.bluez.Error.NotPermitted"])
        }
        let controller = try rig.connected(Rig.first)
        #expect(rig.manager.notifyMethod(of: controller) == (startNotify ? .startNotify : .acquireNotify))
        try rig.wait("the silence") { !controller.isConnected }
        // One packet only: it resumes the stream and its press must count.
        try rig.send(Rig.first, Rig.volumeUpPacket)
        try rig.wait("the press in the first packet after the silence") {
            controller.isConnected && controller.volumeUpButton.isPressed
        }
    }

    @Test func aSilenceThenConnectedFalseEndsTheStream() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first)]) { $0.silenceTimeout = .milliseconds(200) }
        defer { rig.stop() }
        let controller = try rig.connected(Rig.first)
        try rig.wait("the silence") { !controller.isConnected }
        try rig.fake.command("set_property", ["path": Self.device, "interface": "org.bluez.Device1",
                                              "name": "Connected", "value": false])
        try rig.wait("the socket closed") { (try? rig.fake.log().contains { $0.hasPrefix("notify socket closed") }) == true }
        try rig.wait("the reconnect") { controller.isConnected }
        #expect(try calls(rig, "Connect").count >= 2)
    }

    @Test func aSilenceAfterAFlapTheStartNotifyStreamOutlivedIsJudgedWithoutAPacket() throws {
        // BlueZ drops its flag, the values keep coming: the stream resumes with the flag still
        // down. No socket can hang up on this path and no second Connected=false can come, so
        // a controller that then goes silent must be judged by the link's timer alone.
        let rig = try Rig(devices: [Rig.controller(Rig.first)]) { $0.silenceTimeout = .milliseconds(200) }
        defer { rig.stop() }
        try rig.fake.command("configure", ["address": Rig.first, "refuse_acquire": "org.bluez.Error.NotPermitted"])
        let controller = try rig.connected(Rig.first)
        #expect(rig.manager.notifyMethod(of: controller) == .startNotify)
        try rig.fake.command("set_property", ["path": Self.device, "interface": "org.bluez.Device1",
                                              "name": "Connected", "value": false])
        try rig.wait("the release") { !controller.isConnected }
        try stream(rig, until: "the stream resumes") { controller.isConnected }
        // Nothing is sent from here on.
        try rig.wait("the silence") { !controller.isConnected }
        try rig.wait("the link lost without a packet") { transitions(rig).contains("reported down -> idle on lost") }
        try rig.wait("the link made again") { controller.isConnected }
        let afterTheFlap = Array(transitions(rig).drop { $0 != "reported down -> streaming on stream went on" })
        #expect(afterTheFlap.prefix(3) == [
            "reported down -> streaming on stream went on",
            "streaming -> reported down on reported down",
            "reported down -> idle on lost",
        ], "\(afterTheFlap)")
        #expect(try calls(rig, "Connect").count == 2)
        #expect(try calls(rig, "StopNotify").contains("StopNotify \(Self.input)"))
    }

    @Test func oneControllersLostSocketLeavesAnothersAlone() throws {
        // The fake watched each notify socket by descriptor number and never dropped the watch
        // when it closed the socket itself. Socket numbers are reused: a later socket of another
        // controller got that number, and its hang-up closed the first controller's socket too.
        let rig = try Rig(devices: [Rig.controller(Rig.first), Rig.controller(Rig.second)]) {
            $0.silenceTimeout = .milliseconds(300)
        }
        defer { rig.stop() }
        rig.manager.start()
        let both = [Rig.first, Rig.second]
        func streaming(_ address: String) -> Bool {
            rig.manager.controller(address: address).map { rig.manager.notifyMethod(of: $0) == .acquireNotify } ?? false
        }
        try rig.wait("both streaming") { both.allSatisfy(streaming) }
        for address in both { try rig.fake.command("drop", ["address": address, "present": false]) }
        try rig.wait("both lost") { !both.contains(where: streaming) }
        // Back in the other order, so each gets the socket number the other had.
        for address in both.reversed() {
            try rig.fake.command("configure", ["address": address, "present": true])
            try rig.wait("\(address) streaming again") { streaming(address) }
        }
        let second = "/org/bluez/hci0/dev_C0_DD_EE_00_00_02"
        try rig.fake.command("set_property", ["path": second, "interface": "org.bluez.Device1",
                                              "name": "Connected", "value": false])
        try rig.wait("the second's socket closed") { (try? rig.fake.log().contains("notify socket closed \(second)/service0014/char0015")) == true }
        try rig.sync()
        #expect(try !rig.fake.log().contains("notify socket closed \(Self.input)"))
        // The first controller's socket still carries its packets.
        try rig.send(Rig.first, Rig.volumeUpPacket)
        try rig.wait("the first's press") { rig.manager.controller(address: Rig.first)?.volumeUpButton.isPressed == true }
    }

    @Test func aLinkThatNeverResolvesIsDisconnectedAndTriedAgain() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first)]) { $0.resolveTimeout = .milliseconds(300) }
        defer { rig.stop() }
        try rig.fake.command("configure", ["address": Rig.first, "resolves": false])
        rig.manager.start()
        try rig.wait("the disconnect") { (try? calls(rig, "Disconnect").count) == 1 }
        try rig.fake.command("configure", ["address": Rig.first, "resolves": true])
        try rig.wait("the connection") { rig.manager.controller(address: Rig.first)?.isConnected == true }
        #expect(try calls(rig, "Connect").count >= 2)
    }

    @Test func aSubscriptionThatNeverCompletesIsDisconnectedAndTriedAgain() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first)]) { $0.subscribeTimeout = .milliseconds(300) }
        defer { rig.stop() }
        try rig.fake.command("configure", ["address": Rig.first, "acquire_hangs": true])
        rig.manager.start()
        try rig.wait("the disconnect") { (try? calls(rig, "Disconnect").count) == 1 }
        try rig.fake.command("configure", ["address": Rig.first, "acquire_hangs": false])
        try rig.wait("the connection") { rig.manager.controller(address: Rig.first)?.isConnected == true }
        #expect(try calls(rig, "AcquireNotify").count >= 2)
    }

    @Test func aLinkThatDropsRightAfterStreamingSlowsDown() throws {
        // The backoff used to restart at every subscription, so such a link was retried every 40 ms forever.
        let rig = try Rig(devices: [Rig.controller(Rig.first)], maximumReconnectDelay: .seconds(5))
        defer { rig.stop() }
        let controller = try rig.connected(Rig.first)
        var gaps: [TimeSpan] = []
        for _ in 0..<5 {
            try rig.fake.command("drop", ["address": Rig.first, "present": true])
            try rig.wait("the disconnect") { !controller.isConnected }
            let dropped = rig.reactor.now
            try rig.wait("the reconnect") { controller.isConnected }
            gaps.append(rig.reactor.now - dropped)
        }
        // 40 ms doubling, each delay at least half its ceiling: the fifth is at least 320 ms.
        #expect(gaps[4] >= .milliseconds(320), "\(gaps)")
    }

    @Test func aStartNotifyFallbackIsUndoneSoAcquireNotifyWorksAgain() throws {
        // No socket to hang up on the StartNotify path: the silence after Connected=false decides.
        let rig = try Rig(devices: [Rig.controller(Rig.first)]) { $0.silenceTimeout = .milliseconds(500) }
        defer { rig.stop() }
        try rig.fake.command("configure", ["address": Rig.first, "refuse_acquire": "org.bluez.Error.NotPermitted"])
        let controller = try rig.connected(Rig.first)
        #expect(rig.manager.notifyMethod(of: controller) == .startNotify)
        try rig.fake.command("configure", ["address": Rig.first, "refuse_acquire": NSNull()])
        // BlueZ keeps a StartNotify session across the disconnect and answers AcquireNotify
        // with InProgress while it is open: the link must have stopped it.
        // BlueZ reports the link down and nothing more arrives: the link is lost and made again.
        try rig.fake.command("set_property", ["path": Self.device, "interface": "org.bluez.Device1",
                                              "name": "Connected", "value": false])
        try rig.wait("the release") { !controller.isConnected }
        try rig.wait("the reconnect") { controller.isConnected }
        #expect(rig.manager.notifyMethod(of: controller) == .acquireNotify)
        #expect(try calls(rig, "StopNotify").contains("StopNotify \(Self.input)"))
        try rig.send(Rig.first, Rig.volumeUpPacket)
        try rig.wait("the packet") { controller.volumeUpButton.isPressed }
    }

    @Test func anotherProgramsNotificationsAreSharedAndLeftOn() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first)])
        defer { rig.stop() }
        // Another program connects the controller and turns notifications on first.
        let other = try BusConnection(address: rig.bus.address, reactor: rig.reactor)
        defer { other.close() }
        var answers: [String] = []
        let call = { (path: String, interface: String, method: String) in
            other.call(destination: "org.bluez", path: path, interface: interface, method: method) { result in
                answers.append("\(method) \((try? result.get()) != nil ? "ok" : "failed")")
            }
        }
        call(Self.device, "org.bluez.Device1", "Connect")
        try rig.wait("the other's connect") { answers == ["Connect ok"] }
        try rig.wait("the services") { (try? rig.fake.state()["devices"] as? [String: [String: Any]])?[Rig.first]?["ServicesResolved"] as? Bool == true }
        call(Self.input, "org.bluez.GattCharacteristic1", "StartNotify")
        try rig.wait("the other's StartNotify") { answers == ["Connect ok", "StartNotify ok"] }

        // AcquireNotify answers InProgress: the bridge shares the notifications through StartNotify.
        let controller = try rig.connected(Rig.first)
        #expect(rig.manager.notifyMethod(of: controller) == .startNotify)
        try rig.send(Rig.first, Rig.volumeUpPacket)
        try rig.wait("the packet") { controller.volumeUpButton.isPressed }

        // Stopping ends only the bridge's own session.
        rig.manager.stop()
        try rig.wait("the bridge's StopNotify") { (try? calls(rig, "StopNotify").contains("StopNotify \(Self.input)")) == true }
        let sessions = try rig.fake.command("sessions") as? [String: [String: Bool]]
        #expect(sessions?[Self.input]?.count == 1, "\(sessions ?? [:])")
    }
}
