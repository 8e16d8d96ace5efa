import Foundation
import Glibc
import TestSupport
import Testing

/// `follow-focus` on KDE Plasma: KWin 5.27 (Debian 12's), headless (`--virtual`) with Xwayland, runs
/// the script follow-focus loads over D-Bus; X11 windows of two applications open and close, and
/// the replaying daemon's profile follows what KWin activates, through the script's D-Bus calls.
@Suite("follow-focus on KDE Plasma", .serialized, .requires(BuiltBinary.exists && KWinRig.available,
    "needs kwin_wayland, Xwayland, dbus-daemon, xmessage and xfontsel (kwin-wayland, xwayland, x11-utils)"))
struct FollowFocusKWinTests {
    @Test func theProfileFollowsTheWindowKWinActivates() throws {
        let kwin = try KWinRig()
        defer { kwin.stop() }
        let scratch = try RunCommandTests.makeDirectory(config: FollowingBridge.x11ProgramsConfig)
        // On KWin's session bus, which lets only its own user in: the daemon and follow-focus run as that user.
        let bridge = try FollowingBridge.start(in: kwin, directory: scratch.path)
        defer { bridge.stop() }
        let daemon = bridge.daemon
        let follower = try kwin.run(["follow-focus", "--socket", bridge.socket], name: "follower")
        defer { follower.signal(SIGTERM); _ = follower.waitForExit() }
        #expect(follower.waitFor { follower.stderr.contains("following the focus through a KWin script") }, "\(follower.stderr)")

        let timeline = try FocusSwitchTimeline(directory: scratch.path, environment: kwin.environment)
        defer { timeline.stop() }
        var latencies: [Double] = []
        var parts: [String] = []
        /// The desktop's part and the bridge's of the switch after `mark`, on the bus's clock.
        func timed(_ mark: Int64, startMember: String?) {
            let found = timeline.waitForSwitch(after: mark, startMember: startMember)
            #expect(found != nil, "no SetFocusedApplication and Profile change on the bus after the change")
            parts.append(found?.description ?? "?")
        }
        /// Waits for the daemon's log of a switch to `profile` after `change`: the time from the
        /// change's start (an upper bound) to the log line, read every 20 ms.
        func expect(_ profile: String, after change: () throws -> Date?) rethrows -> Double {
            let switches = bridge.switches(to: profile)
            var changed = Date()
            if let started = try change() { changed = started }
            #expect(bridge.waitForSwitch(to: profile, moreThan: switches, timeout: 15),
                    "\(profile): \(daemon.stderr.suffix(1500))\n\(follower.stderr)")
            #expect(bridge.profile.contains("\(profile), connected"))
            return FollowingBridge.milliseconds(since: changed)
        }
        var game: RunningBinary?
        var notes: RunningBinary?
        // A new window is activated (its start is in these times, so they are not kept).
        _ = try expect("shooter") { game = try kwin.x11Client("/usr/bin/xmessage", ["-name", "game", "a game"]); return nil }
        _ = try expect("notes") { notes = try kwin.x11Client("/usr/bin/xfontsel", []); return nil }
        // Activated by a KWin script, as a click would; a closed window hands the focus to the one below.
        for (windowClass, profile) in [("xmessage", "shooter"), ("xfontsel", "notes")] {
            let mark = FocusSwitchTimeline.now
            latencies.append(try expect(profile) { try kwin.activate(windowClass) })
            timed(mark, startMember: "start")
        }
        for (window, profile) in [(notes, "shooter"), (game, "desktop")] {
            let mark = FocusSwitchTimeline.now
            latencies.append(expect(profile) { window?.stop(); return nil })
            timed(mark, startMember: nil)
        }
        print("follow-focus KWin: from the D-Bus call that runs an activating script, or a window's close, to the daemon's log of the switch (read every 20 ms): "
            + FollowingBridge.summary(latencies))
        print("follow-focus KWin, on the bus's clock: KWin's part (the script's start, or the close, to its SetFocusedApplication call) "
            + "+ the bridge's (that call to its PropertiesChanged for Profile): " + parts.joined(separator: ", "))
        #expect(follower.process.isRunning, "\(follower.stderr)")
    }
}
