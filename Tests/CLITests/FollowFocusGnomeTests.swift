import Foundation
import Glibc
import TestSupport
import Testing

/// `follow-focus` on GNOME: GNOME Shell 43 (Debian 12's), headless, with the bridge's extension
/// from `desktop/gnome-shell` installed and enabled. X11 windows of two applications get the
/// focus in turn, and the replaying daemon's profile follows through the extension's D-Bus calls.
/// A headless Shell has no input device to click with, so a test-only extension
/// (`Tests/desktop/gnome-focus-driver@daydream-bridge-tests`) activates the windows, as a click would.
@Suite("follow-focus on GNOME", .serialized, .requires(BuiltBinary.exists && GnomeShellRig.available,
    "needs gnome-shell, Xwayland, dbus-daemon, gdbus, xmessage and xfontsel (gnome-shell, xwayland, libglib2.0-bin, x11-utils)"))
struct FollowFocusGnomeTests {
    @Test func theProfileFollowsTheWindowTheShellFocuses() throws {
        let shell = try GnomeShellRig()
        defer { shell.stop() }
        let scratch = try RunCommandTests.makeDirectory(config: FollowingBridge.x11ProgramsConfig)
        let bridge = try FollowingBridge.start(in: shell, directory: scratch.path)
        defer { bridge.stop() }
        let game = try shell.x11Client("/usr/bin/xmessage", ["-name", "game", "a game"], windowClass: "Xmessage")
        let notes = try shell.x11Client("/usr/bin/xfontsel", [], windowClass: "XFontSel")
        defer { game.stop(); notes.stop() }

        let timeline = try FocusSwitchTimeline(directory: scratch.path, environment: shell.environment)
        defer { timeline.stop() }
        var latencies: [Double] = []
        var parts: [String] = []
        for (windowClass, profile) in [("Xmessage", "shooter"), ("XFontSel", "notes"), ("Xmessage", "shooter")] {
            let mark = FocusSwitchTimeline.now
            let switches = bridge.switches(to: profile)
            // An upper bound: from before gdbus starts (its own start included) to the daemon's log of the switch.
            let focused = Date()
            try shell.activate(windowClass)
            #expect(bridge.waitForSwitch(to: profile, moreThan: switches, timeout: 15), "\(windowClass): \(bridge.daemon.stderr.suffix(1500))")
            latencies.append(FollowingBridge.milliseconds(since: focused))
            #expect(bridge.profile.contains("\(profile), connected"))
            let found = timeline.waitForSwitch(after: mark, startMember: "Activate")
            #expect(found != nil, "no SetFocusedApplication and Profile change on the bus after Activate")
            parts.append(found?.description ?? "?")
        }
        game.stop()
        notes.stop()
        #expect(bridge.waitForProfile("desktop", timeout: 15), "no window left: \(bridge.profile)")
        print("follow-focus GNOME Shell: gdbus started to move the focus, to the daemon's log of the switch (read every 20 ms): "
            + FollowingBridge.summary(latencies))
        print("follow-focus GNOME Shell, on the bus's clock: the Shell's part (the driver's Activate call to the extension's "
            + "SetFocusedApplication) + the bridge's (that call to its PropertiesChanged for Profile): " + parts.joined(separator: ", "))
    }
}
