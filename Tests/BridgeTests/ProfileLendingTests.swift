@testable import Bridge
import DaydreamCore
import DaydreamProtocol
import TestSupport
import Testing

/// Profiles with `lend = true`: coming into one lends the controller, leaving it for one that
/// does not takes it back, whichever way the profile changed.
@MainActor
struct ProfileLendingTests {
    typealias Harness = DaemonTests.Harness

    static let config = """
    [bridge]
    profile = "pad"

    [profile.pad]
    click = "BTN_SOUTH"
    app = "BTN_EAST"

    [profile.pad.chords]
    "home+app" = "profile:vr"

    [profile.vr]
    lend = true
    """

    func waitForLent(_ harness: Harness, _ feed: ControllerFeed, _ lent: Bool) -> Bool {
        harness.reactor.run(until: { feed.isLent == lent }, timeout: .seconds(5))
    }

    @Test func switchingToALendingProfileLendsAndSwitchingBackTakesBack() throws {
        let harness = try Harness(config: Self.config)
        defer { harness.finish() }
        let feed = harness.controller()
        LendingTests.lendable(feed, harness)
        harness.send(feed, .click)
        let output = harness.outputs[0]
        #expect(!output.atRest)

        // The reply already says lent: Monado may start as soon as the launch wrapper hears it.
        let lent = harness.daemon.perform(.switchProfile("vr", controller: nil))
        #expect(lent == .success(["C0:DD:EE:00:00:01: vr, lent"]))
        #expect(feed.isLent)
        #expect(output.atRest)
        #expect(harness.daemon.state.controller("C0:DD:EE:00:00:01")?.isLent == true)

        let back = harness.daemon.perform(.switchProfile("pad", controller: nil))
        #expect(back == .success(["C0:DD:EE:00:00:01: pad, connected"]))
        #expect(!feed.isLent)
        harness.send(feed, [])
        harness.send(feed, .click)
        #expect(output.lines.suffix(2) == ["gamepad EV_KEY BTN_SOUTH 1", "gamepad EV_SYN SYN_REPORT 0"])
    }

    @Test func aChordIntoALendingProfileLendsOnceThePacketIsDelivered() throws {
        let harness = try Harness(config: Self.config)
        defer { harness.finish() }
        let feed = harness.controller()
        LendingTests.lendable(feed, harness)
        harness.send(feed, [.home, .app])
        #expect(harness.daemon.state.controller("C0:DD:EE:00:00:01")?.profile == "vr")
        #expect(waitForLent(harness, feed, true))
        // Leaving it for a profile that does not lend takes it back; one lent by hand in a
        // profile that does not lend stays lent across switches between such profiles.
        _ = harness.daemon.perform(.switchProfile("pad", controller: nil))
        #expect(!feed.isLent)
        _ = harness.daemon.perform(.lend(controller: nil))
        _ = harness.daemon.perform(.switchProfile("pad", controller: nil))
        #expect(feed.isLent)
    }

    @Test func aControllerAwayWhenItsProfileLendsIsLentWhenItConnects() throws {
        let harness = try Harness(config: Self.config, profile: "vr")
        defer { harness.finish() }
        // Started in the lending profile: lent as soon as it connects.
        let feed = harness.controller()
        LendingTests.lendable(feed, harness)
        #expect(waitForLent(harness, feed, true))
        _ = harness.daemon.perform(.switchProfile("pad", controller: nil))
        #expect(!feed.isLent)

        // Switched while away: lent when it comes back.
        feed.linkChanged(connected: false, at: harness.reactor.now)
        _ = harness.daemon.perform(.switchProfile("vr", controller: nil))
        #expect(!feed.isLent)
        feed.linkChanged(connected: true, at: harness.reactor.now)
        #expect(waitForLent(harness, feed, true))
    }

    @Test func aReloadThatMakesTheProfileLendLendsAndOneThatUndoesItTakesBack() throws {
        let harness = try Harness(config: Self.config)
        defer { harness.finish() }
        let feed = harness.controller()
        LendingTests.lendable(feed, harness)
        try Self.config.replacingOccurrences(of: "[profile.vr]\nlend = true", with: "[profile.vr]\nlend = false")
            .save(toFile: harness.configPath)
        harness.daemon.perform(.reload)
        _ = harness.daemon.perform(.switchProfile("vr", controller: nil))
        #expect(!feed.isLent)

        try Self.config.save(toFile: harness.configPath)
        harness.daemon.perform(.reload)
        #expect(waitForLent(harness, feed, true))
        try Self.config.replacingOccurrences(of: "lend = true", with: "click = \"BTN_WEST\"").save(toFile: harness.configPath)
        harness.daemon.perform(.reload)
        #expect(waitForLent(harness, feed, false))
        #expect(harness.daemon.state.controller("C0:DD:EE:00:00:01")?.profile == "vr")
    }
}
