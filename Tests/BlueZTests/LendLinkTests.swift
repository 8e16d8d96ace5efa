import BlueZ
import DBus
@testable import DaydreamCore
import EventLoop
import Foundation
import TestSupport
import Testing
import Timebase

/// A lent link against the fake bluetoothd: it lets go of the notification and keeps the
/// connection, judges no silence, stays lent across a reconnection, and subscribes again when
/// taken back.
@MainActor
@Suite(.serialized, .requires(TestEnvironment.canRunDBusTests, "needs dbus-daemon, python3-dbus, python3-gi"))
struct LendLinkTests {
    typealias Rig = ManagerRig
    static let input = LinkTests.input

    func calls(_ rig: Rig, _ prefix: String) throws -> [String] {
        try rig.fake.log().filter { $0.hasPrefix(prefix + " ") }
    }

    @Test(arguments: [false, true])
    func aLentLinkKeepsItsConnectionAndStaysLentAcrossAReconnect(startNotify: Bool) throws {
        let refusal: [String: Any] = startNotify ? ["refuse_acquire": "org.bluez.Error.NotSupported"] : [:]
        let rig = try Rig(devices: [Rig.controller(Rig.first, refusal)]) { $0.silenceTimeout = .milliseconds(200) }
        defer { rig.stop() }
        let controller = try rig.connected(Rig.first)
        let link = try #require(rig.manager.links[Rig.first])
        try rig.send(Rig.first, Rig.volumeUpPacket)
        try rig.wait("the press") { controller.volumeUpButton.isPressed }

        #expect(link.lend())
        #expect(!controller.volumeUpButton.isPressed && !controller.isConnected)
        #expect(link.feed.isLent)
        #expect(link.state == .lent)
        if startNotify {
            try rig.sync()
            #expect(try rig.fake.log().filter { $0 == "StopNotify \(Self.input)" }.count == 1)
        } else {
            try rig.wait("the socket closed") { (try? rig.fake.log().contains("notify socket closed \(Self.input)")) == true }
        }
        try rig.sync()
        // Its own release (NotifyAcquired false) takes nothing back; no silence is judged.
        #expect(link.state == .lent)
        #expect(rig.reactor.pendingTimerCount == 0)
        #expect(try calls(rig, "Disconnect").isEmpty)
        #expect(try rig.fake.command("send", ["address": Rig.first, "hex": Rig.volumeUpPacket]) as? String == "dropped")

        // A reconnection stays lent: connected again, nothing acquired.
        try rig.fake.command("drop", ["address": Rig.first, "present": true])
        try rig.wait("the reconnection") { (try? calls(rig, "Connect").count) == 2 && link.state == .lent }
        try rig.sync()
        let subscribe = startNotify ? "StartNotify" : "AcquireNotify"
        #expect(try rig.fake.log().filter { $0 == "\(subscribe) \(Self.input)" }.count == 1)
        #expect(!controller.isConnected)

        link.reclaim()
        try rig.wait("the stream again") { controller.isConnected }
        #expect(!link.feed.isLent)
        #expect(try rig.fake.log().filter { $0 == "\(subscribe) \(Self.input)" }.count == 2)
        try rig.send(Rig.first, Rig.volumeUpPacket)
        try rig.wait("packets again") { controller.volumeUpButton.isPressed }
    }

    @Test func aLinkThatIsNotConnectedHasNothingToLend() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first)])
        defer { rig.stop() }
        let controller = try rig.connected(Rig.first)
        let link = try #require(rig.manager.links[Rig.first])
        try rig.fake.command("drop", ["address": Rig.first, "present": false])
        try rig.wait("the loss") { !controller.isConnected && link.state.isIdle }
        #expect(!link.lend())
        #expect(!link.feed.isLent)
    }
}
