@testable import Bridge
import BridgeConfig
import DaydreamCore
import Foundation
import TestSupport
import Testing

/// Profiles that follow the focused application, in the daemon: switch, restore, a switch by
/// hand holding until the focus moves, release before each switch, and a reload's new rules.
@Suite("focus following", .serialized)
@MainActor
struct FocusFollowingTests {
    static let config = """
    [bridge]
    profile = "desktop"

    [profile.desktop]
    click = "BTN_LEFT"

    [profile.shooter]
    click = "BTN_SOUTH"
    applications = ["xonotic*", "steam_app_1245620"]

    [profile.video]
    click = "KEY_SPACE"
    applications = ["mpv"]
    """

    func profiles(_ harness: DaemonTests.Harness) -> [String] {
        harness.daemon.controllers.map(\.profile) + [harness.daemon.activeProfile]
    }

    @Test func aListedApplicationSwitchesAndAnUnlistedOneRestores() throws {
        let harness = try DaemonTests.Harness(config: Self.config)
        defer { harness.finish() }
        _ = harness.controller()
        harness.daemon.setFocusedApplication(FocusedApplication(ids: ["Xonotic-SDL"], title: "Xonotic"))
        #expect(profiles(harness) == ["shooter", "shooter"])
        // Another listed application: straight to its profile; what comes back later is still the desktop's.
        harness.daemon.setFocusedApplication(FocusedApplication(ids: ["mpv"]))
        #expect(profiles(harness) == ["video", "video"])
        harness.daemon.setFocusedApplication(FocusedApplication(ids: ["foot"]))
        #expect(profiles(harness) == ["desktop", "desktop"])
        // A second unlisted application changes nothing, nor does nothing focused.
        harness.daemon.setFocusedApplication(FocusedApplication(ids: ["org.gnome.Nautilus"]))
        harness.daemon.setFocusedApplication(FocusedApplication(ids: []))
        #expect(profiles(harness) == ["desktop", "desktop"])
        // New controllers start in the followed profile.
        harness.daemon.setFocusedApplication(FocusedApplication(ids: ["steam_app_1245620"]))
        _ = harness.controller("C0:DD:EE:00:00:02")
        #expect(profiles(harness) == ["shooter", "shooter", "shooter"])
    }

    @Test func aSwitchByHandHoldsUntilTheFocusChanges() throws {
        let harness = try DaemonTests.Harness(config: Self.config)
        defer { harness.finish() }
        _ = harness.controller()
        harness.daemon.setFocusedApplication(FocusedApplication(ids: ["xonotic"]))
        #expect(harness.daemon.switchProfile(to: "video", address: nil).succeeded)
        harness.daemon.setFocusedApplication(FocusedApplication(ids: ["xonotic"], title: "a new title"))
        #expect(profiles(harness) == ["video", "video"], "a new title is not a focus change")
        harness.daemon.setFocusedApplication(FocusedApplication(ids: ["foot"]))
        #expect(profiles(harness) == ["video", "video"], "leaving the game does not undo the hand's switch")
        harness.daemon.setFocusedApplication(FocusedApplication(ids: ["xonotic"]))
        #expect(profiles(harness) == ["shooter", "shooter"])
        harness.daemon.setFocusedApplication(FocusedApplication(ids: ["foot"]))
        #expect(profiles(harness) == ["video", "video"], "the profile from before the automatic switch")
    }

    @Test func cyclingAndChordsAreSwitchesByHandToo() throws {
        let harness = try DaemonTests.Harness(config: Self.config.replacingOccurrences(of: "profile = \"desktop\"", with: "profile = \"desktop\"\nnext-profile = \"home+app\""))
        defer { harness.finish() }
        let controller = harness.controller()
        harness.daemon.setFocusedApplication(FocusedApplication(ids: ["mpv"]))
        #expect(harness.daemon.cycleProfile(address: nil).succeeded)  // SIGUSR1's path: video -> desktop
        harness.daemon.setFocusedApplication(FocusedApplication(ids: ["foot"]))
        #expect(profiles(harness) == ["desktop", "desktop"])
        harness.daemon.setFocusedApplication(FocusedApplication(ids: ["xonotic"]))
        harness.send(controller, [.home, .app])  // the chord: shooter -> video
        harness.send(controller, [])
        #expect(profiles(harness).first == "video")
        harness.daemon.setFocusedApplication(FocusedApplication(ids: ["foot"]))
        #expect(profiles(harness).first == "video", "the chord's profile holds when the game loses the focus")
    }

    @Test func heldInputIsReleasedBeforeTheSwitch() throws {
        let harness = try DaemonTests.Harness(config: Self.config)
        defer { harness.finish() }
        let controller = harness.controller()
        harness.daemon.setFocusedApplication(FocusedApplication(ids: ["xonotic"]))
        harness.send(controller, .click)
        let output = harness.outputs[0]
        #expect(output.lines.suffix(2) == ["gamepad EV_KEY BTN_SOUTH 1", "gamepad EV_SYN SYN_REPORT 0"])
        harness.daemon.setFocusedApplication(FocusedApplication(ids: ["foot"]))
        #expect(output.lines.suffix(2) == ["gamepad EV_KEY BTN_SOUTH 0", "gamepad EV_SYN SYN_REPORT 0"])
        #expect(output.atRest)
    }

    @Test func theControlSocketCarriesTheFocus() throws {
        let harness = try DaemonTests.Harness(config: Self.config)
        defer { harness.finish() }
        _ = harness.controller()
        #expect(ControlRequest.parse("focus Navigator firefox") == .success(.focus(ids: ["Navigator", "firefox"])))
        #expect(ControlRequest.parse("focus") == .success(.focus(ids: [])))
        #expect(ControlRequest.focus(ids: ["a", "b"]).line == "focus a b")
        harness.daemon.setFocusedApplication(FocusedApplication(ids: ["mpv"]))
        #expect(harness.daemon.activeProfile == "video")
    }

    @Test func aReloadAppliesTheNewRulesToTheFocusedApplication() throws {
        let harness = try DaemonTests.Harness(config: Self.config)
        defer { harness.finish() }
        _ = harness.controller()
        harness.daemon.setFocusedApplication(FocusedApplication(ids: ["foot"]))
        #expect(profiles(harness) == ["desktop", "desktop"])
        try Self.config.replacingOccurrences(of: "[\"mpv\"]", with: "[\"mpv\", \"foot\"]").save(toFile: harness.configPath)
        harness.daemon.reload()
        #expect(profiles(harness) == ["video", "video"])
        try Self.config.save(toFile: harness.configPath)
        harness.daemon.reload()
        #expect(profiles(harness) == ["desktop", "desktop"])
    }
}
