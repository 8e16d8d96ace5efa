import TestSupport
import Testing

/// `follow-focus` in a real wlroots compositor: sway, headless, with two Wayland clients of
/// different app_ids (foot) and the focus moved by swaymsg: the replaying daemon's profile follows.
@Suite("follow-focus on wlroots", .serialized, .requires(BuiltBinary.exists && SwayRig.available, "needs sway, swaymsg and foot"))
struct FollowFocusWaylandTests {
    @Test func theProfileFollowsTheFocusedToplevel() throws {
        let sway = try SwayRig()
        defer { sway.stop() }
        let scratch = try RunCommandTests.makeDirectory(config: FollowingBridge.clientsConfig)
        let latencies = try FollowingBridge.checkProfileFollowsFocus(on: sway, directory: scratch.path,
                                                                     followerSays: "following the focus through wlroots foreign toplevels")
        print("follow-focus wlroots: focus change to profile switch, as seen through the socket: " + FollowingBridge.summary(latencies))
    }
}
