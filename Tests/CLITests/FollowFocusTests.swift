import Glibc
import TestSupport
import Testing

/// `follow-focus` on desktops whose windows the test focuses itself: a real X server (Xvfb) with
/// a window manager that keeps `_NET_ACTIVE_WINDOW` (openbox), X clients of different WM_CLASS
/// (xmessage) focused by xdotool; a headless sway (wlroots) with Wayland clients of different
/// app_ids (foot) focused by swaymsg. The replaying daemon's profile follows.
@Suite("follow-focus on X11 and wlroots", .serialized, .requires(BuiltBinary.exists, "the daydream-bridge binary is not built"))
struct FollowFocusTests {
    @Test(.requires(X11Rig.available, "needs Xvfb, openbox, xdotool and xmessage"))
    func theProfileFollowsTheActiveWindow() throws {
        let x = try X11Rig()
        defer { x.stop() }
        try checkProfileFollowsFocus(on: x, named: "X11", followerSays: "following the focus through X11")
    }

    @Test(.requires(SwayRig.available, "needs sway, swaymsg and foot"))
    func theProfileFollowsTheFocusedToplevel() throws {
        let sway = try SwayRig()
        defer { sway.stop() }
        try checkProfileFollowsFocus(on: sway, named: "wlroots", followerSays: "following the focus through wlroots foreign toplevels")
    }

    private func checkProfileFollowsFocus(on desktop: some FocusDesktop, named name: String, followerSays: String,
                                          sourceLocation: SourceLocation = #_sourceLocation) throws {
        let scratch = try RunCommandTests.makeDirectory(config: FollowingBridge.clientsConfig)
        let latencies = try FollowingBridge.checkProfileFollowsFocus(on: desktop, directory: scratch.path, followerSays: followerSays,
                                                                     sourceLocation: sourceLocation)
        print("follow-focus \(name): focus change to profile switch, as seen through the socket: " + FollowingBridge.summary(latencies))
    }

    @Test(.requires(X11Rig.available, "needs Xvfb, openbox, xdotool and xmessage"))
    func printShowsTheIdsAndTheProfileTheRulesGive() throws {
        let x = try X11Rig()
        defer { x.stop() }
        let scratch = try TemporaryDirectory(prefix: "daydream-focus")
        try FollowingBridge.clientsConfig.save(toFile: scratch.path + "/config.toml")
        let game = try x.client("xonotic-sdl")
        defer { game.stop() }
        let printer = try RunningBinary(["follow-focus", "--print", "--config", scratch.path + "/config.toml"],
                                        directory: scratch.path, environment: x.environment)
        defer {
            printer.signal(SIGKILL)
            _ = printer.waitForExit()
        }
        try x.focus("xonotic-sdl")
        #expect(printer.waitFor(timeout: 10) { printer.stdout.contains("xonotic-sdl Xmessage (") },
                "\(printer.stdout)\n\(printer.stderr)")
        #expect(printer.stdout.contains("-> profile shooter"), "\(printer.stdout)")
    }
}
