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
        harness.daemon.perform(.focusChanged(FocusedApplication(ids: ["Xonotic-SDL"], title: "Xonotic")))
        #expect(profiles(harness) == ["shooter", "shooter"])
        // Another listed application: straight to its profile; what comes back later is still the desktop's.
        harness.daemon.perform(.focusChanged(FocusedApplication(ids: ["mpv"])))
        #expect(profiles(harness) == ["video", "video"])
        harness.daemon.perform(.focusChanged(FocusedApplication(ids: ["foot"])))
        #expect(profiles(harness) == ["desktop", "desktop"])
        // A second unlisted application changes nothing, nor does nothing focused.
        harness.daemon.perform(.focusChanged(FocusedApplication(ids: ["org.gnome.Nautilus"])))
        harness.daemon.perform(.focusChanged(FocusedApplication(ids: [])))
        #expect(profiles(harness) == ["desktop", "desktop"])
        // New controllers start in the followed profile.
        harness.daemon.perform(.focusChanged(FocusedApplication(ids: ["steam_app_1245620"])))
        _ = harness.controller("C0:DD:EE:00:00:02")
        #expect(profiles(harness) == ["shooter", "shooter", "shooter"])
    }

    /// The log lines a focus change writes at `threshold` (the test's own: matched by `marker`).
    func focusLines(_ harness: DaemonTests.Harness, threshold: LogPriority, marker: String, _ changes: [FocusedApplication]) -> [String] {
        var written: [String] = []
        let saved = (Logger.sink, Logger.threshold, Logger.style)
        defer { (Logger.sink, Logger.threshold, Logger.style) = saved }
        Logger.sink = { written.append($0) }
        Logger.style = .journal
        Logger.threshold = threshold
        for change in changes { harness.daemon.perform(.focusChanged(change)) }
        return written.filter { $0.contains(marker) }
    }

    /// An application id with a terminal escape reached the journal raw, and each focus change
    /// wrote two lines (241 771 in 30 s). One line per change, every control character escaped;
    /// at the normal level only the changes that switch a profile.
    @Test func aFocusChangeIsOneLineWithItsControlCharactersEscaped() throws {
        let harness = try DaemonTests.Harness(config: Self.config)
        defer { harness.finish() }
        _ = harness.controller()
        let hostile = FocusedApplication(ids: ["xonotic\u{1B}]0;owned\u{07}\nforged\u{9B}"], title: "T\u{1B}[2J\\")
        #expect(focusLines(harness, threshold: .debug, marker: "xonotic", [hostile]) == [
            "<6>focus: xonotic\\x1B]0;owned\\x07\\x0Aforged\\x9B (T\\x1B[2J\\\\): profile shooter\n",
        ])
        #expect(focusLines(harness, threshold: .debug, marker: "nautilus", [FocusedApplication(ids: ["nautilus"])]) == [
            "<6>focus: nautilus, which no profile lists: the profiles from before\n",
        ])
        // Unlisted applications switch nothing: a line each with -v, none at the normal level.
        let unlisted = (0..<100).map { FocusedApplication(ids: ["foot\($0 % 2)"]) }
        #expect(focusLines(harness, threshold: .debug, marker: "foot", unlisted).count == 100)
        #expect(focusLines(harness, threshold: .debug, marker: "foot", [FocusedApplication(ids: ["foot1"])])
            == ["<7>focus: foot1: no profile change\n"])
        #expect(focusLines(harness, threshold: .info, marker: "foot", unlisted).isEmpty)
        // Listed ones alternating: one line per switch.
        let listed = (0..<100).map { FocusedApplication(ids: [$0 % 2 == 0 ? "mpv" : "xonotic"]) }
        let switches = focusLines(harness, threshold: .info, marker: "focus:", listed)
        #expect(switches.count == 100)
        #expect(switches.first == "<6>focus: mpv: profile video\n")
        #expect(profiles(harness) == ["shooter", "shooter"])
    }

    @Test func aSwitchByHandHoldsUntilTheFocusChanges() throws {
        let harness = try DaemonTests.Harness(config: Self.config)
        defer { harness.finish() }
        _ = harness.controller()
        harness.daemon.perform(.focusChanged(FocusedApplication(ids: ["xonotic"])))
        #expect(ControlReply(harness.daemon.perform(.switchProfile("video", controller: nil))).succeeded)
        harness.daemon.perform(.focusChanged(FocusedApplication(ids: ["xonotic"], title: "a new title")))
        #expect(profiles(harness) == ["video", "video"], "a new title is not a focus change")
        harness.daemon.perform(.focusChanged(FocusedApplication(ids: ["foot"])))
        #expect(profiles(harness) == ["video", "video"], "leaving the game does not undo the hand's switch")
        harness.daemon.perform(.focusChanged(FocusedApplication(ids: ["xonotic"])))
        #expect(profiles(harness) == ["shooter", "shooter"])
        harness.daemon.perform(.focusChanged(FocusedApplication(ids: ["foot"])))
        #expect(profiles(harness) == ["video", "video"], "the profile from before the automatic switch")
    }

    @Test func cyclingAndChordsAreSwitchesByHandToo() throws {
        let harness = try DaemonTests.Harness(config: Self.config.replacingOccurrences(of: "profile = \"desktop\"", with: "profile = \"desktop\"\nnext-profile = \"home+app\""))
        defer { harness.finish() }
        let controller = harness.controller()
        harness.daemon.perform(.focusChanged(FocusedApplication(ids: ["mpv"])))
        #expect(ControlReply(harness.daemon.perform(.nextProfile(controller: nil))).succeeded)  // SIGUSR1's path: video -> desktop
        harness.daemon.perform(.focusChanged(FocusedApplication(ids: ["foot"])))
        #expect(profiles(harness) == ["desktop", "desktop"])
        harness.daemon.perform(.focusChanged(FocusedApplication(ids: ["xonotic"])))
        harness.send(controller, [.home, .app])  // the chord: shooter -> video
        harness.send(controller, [])
        #expect(profiles(harness).first == "video")
        harness.daemon.perform(.focusChanged(FocusedApplication(ids: ["foot"])))
        #expect(profiles(harness).first == "video", "the chord's profile holds when the game loses the focus")
    }

    @Test func heldInputIsReleasedBeforeTheSwitch() throws {
        let harness = try DaemonTests.Harness(config: Self.config)
        defer { harness.finish() }
        let controller = harness.controller()
        harness.daemon.perform(.focusChanged(FocusedApplication(ids: ["xonotic"])))
        harness.send(controller, .click)
        let output = harness.outputs[0]
        #expect(output.lines.suffix(2) == ["gamepad EV_KEY BTN_SOUTH 1", "gamepad EV_SYN SYN_REPORT 0"])
        harness.daemon.perform(.focusChanged(FocusedApplication(ids: ["foot"])))
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
        harness.daemon.perform(.focusChanged(FocusedApplication(ids: ["mpv"])))
        #expect(harness.daemon.activeProfile == "video")
    }

    @Test func aReloadAppliesTheNewRulesToTheFocusedApplication() throws {
        let harness = try DaemonTests.Harness(config: Self.config)
        defer { harness.finish() }
        _ = harness.controller()
        harness.daemon.perform(.focusChanged(FocusedApplication(ids: ["foot"])))
        #expect(profiles(harness) == ["desktop", "desktop"])
        try Self.config.replacingOccurrences(of: "[\"mpv\"]", with: "[\"mpv\", \"foot\"]").save(toFile: harness.configPath)
        harness.daemon.perform(.reload)
        #expect(profiles(harness) == ["video", "video"])
        try Self.config.save(toFile: harness.configPath)
        harness.daemon.perform(.reload)
        #expect(profiles(harness) == ["desktop", "desktop"])
    }
}
