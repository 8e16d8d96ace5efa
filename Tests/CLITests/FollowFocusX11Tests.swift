import Foundation
import Glibc
import TestSupport
import Testing

/// `follow-focus` on a real X server (Xvfb) with a real window manager that keeps
/// `_NET_ACTIVE_WINDOW` (openbox), two X clients of different WM_CLASS (xmessage), and the focus
/// moved by xdotool: the replaying daemon's profile follows.
@Suite("follow-focus on X11", .serialized, .requires(BuiltBinary.exists && X11Rig.available, "needs Xvfb, openbox, xdotool and xmessage"))
struct FollowFocusX11Tests {
    @Test func theProfileFollowsTheActiveWindow() throws {
        let x = try X11Rig()
        defer { x.stop() }
        let scratch = try RunCommandTests.makeDirectory(config: FollowingBridge.clientsConfig)
        let latencies = try FollowingBridge.checkProfileFollowsFocus(on: x, directory: scratch.path, followerSays: "following the focus through X11")
        print("follow-focus X11: focus change to profile switch, as seen through the socket: " + FollowingBridge.summary(latencies))
    }

    @Test func printShowsTheIdsAndTheProfileTheRulesGive() throws {
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
