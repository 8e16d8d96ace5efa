import Foundation
import Glibc
import TestSupport
import Testing

/// `follow-focus` on the desktops that follow the focus themselves and tell the bridge over
/// their session bus: KDE Plasma (a KWin script) and GNOME (the Shell extension). Each runs
/// headless with Xwayland, the replaying daemon and follow-focus on its session bus as its user;
/// `busctl monitor` times each switch on the bus's clock (`FocusSwitchTimeline`).
@Suite("follow-focus on KDE Plasma and GNOME", .requires(BuiltBinary.exists, "the daydream-bridge binary is not built"))
struct FollowFocusSessionTests {
    /// `session` started (`makeSession`, stopped again when the rest fails), and the daemon on
    /// its bus (`FollowingBridge.start(in:)`) in a scratch directory whose profiles follow the X11
    /// programs the tests open.
    private func startBridge<Session: SessionDesktop>(in makeSession: @autoclosure () throws -> Session,
                                                      sourceLocation: SourceLocation = #_sourceLocation) throws
        -> (session: Session, scratch: TemporaryDirectory, bridge: FollowingBridge) {
        let session = try makeSession()
        do {
            let scratch = try RunCommandTests.makeDirectory(config: FollowingBridge.x11ProgramsConfig)
            return (session, scratch, try FollowingBridge.start(in: session, directory: scratch.path, sourceLocation: sourceLocation))
        } catch {
            session.stop()
            throw error
        }
    }

    /// KDE Plasma: KWin 5.27 (Debian 12's), headless (`--virtual`) with Xwayland, runs the script
    /// follow-focus loads over D-Bus; X11 windows of two applications open and close, and the
    /// profile follows what KWin activates, through the script's D-Bus calls.
    @Test(.requires(KWinRig.available,
                    "needs kwin_wayland, Xwayland, dbus-daemon, xmessage and xfontsel (kwin-wayland, xwayland, x11-utils)"))
    func theProfileFollowsTheWindowKWinActivates() throws {
        // On KWin's session bus, which lets only its own user in: the daemon and follow-focus run as that user.
        let (kwin, scratch, bridge) = try startBridge(in: KWinRig())
        defer { bridge.stop(); kwin.stop() }
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

    /// GNOME: GNOME Shell 43 (Debian 12's), headless, with the bridge's extension from
    /// `desktop/gnome-shell` installed and enabled. X11 windows of two applications get the focus
    /// in turn, and the profile follows through the extension's D-Bus calls. A headless Shell has
    /// no input device to click with, so a test-only extension
    /// (`Tests/desktop/gnome-focus-driver@daydream-bridge-tests`) activates the windows, as a click would.
    @Test(.requires(GnomeShellRig.available,
                    "needs gnome-shell, Xwayland, dbus-daemon, gdbus, xmessage and xfontsel (gnome-shell, xwayland, libglib2.0-bin, x11-utils)"))
    func theProfileFollowsTheWindowTheShellFocuses() throws {
        let (shell, scratch, bridge) = try startBridge(in: GnomeShellRig())
        defer { bridge.stop(); shell.stop() }
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
