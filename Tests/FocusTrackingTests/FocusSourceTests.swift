import EventLoop
import FocusTracking
import TestSupport
import Testing

/// The focus sources against real desktops: X11's against an X server (Xvfb) whose window
/// manager (openbox) keeps `_NET_ACTIVE_WINDOW`, with xmessage windows focused by xdotool;
/// wlroots' against a headless sway, with foot terminals of different app_ids focused by swaymsg.
@Suite("focus sources", .serialized)
@MainActor
struct FocusSourceTests {
    /// X11's ids are WM_CLASS's instance, then its class; the title is xmessage's, its instance.
    @Test(.requires(X11Rig.available, "needs Xvfb, openbox, xdotool and xmessage"))
    func x11TellsTheFocusNowEachChangeAndTheServerGoing() throws {
        let x = try X11Rig()
        defer { x.stop() }
        var description = ""
        let heard = try FocusHeard.check(on: x, open: { reactor in
            let source = try X11FocusSource(display: x.display, reactor: reactor)
            description = source.description
            return source
        }, ids: { [$0, "Xmessage"] }, ending: "the X server closed the connection")
        #expect(description == "X11 (_NET_ACTIVE_WINDOW on \(x.display))")
        #expect(heard.focuses.first == WindowFocus(ids: ["xonotic-sdl", "Xmessage"], title: "xonotic-sdl"), "\(heard.focuses)")
    }

    /// wlroots' one id is the app_id.
    @Test(.requires(SwayRig.available, "needs sway, swaymsg and foot"))
    func wlrootsTellsTheFocusNowEachChangeAndTheCompositorGoing() throws {
        let sway = try SwayRig()
        defer { sway.stop() }
        // The compositor's socket by its full path: the test's own XDG_RUNTIME_DIR is not sway's.
        let socket = (sway.environment["XDG_RUNTIME_DIR"] ?? "") + "/" + (sway.environment["WAYLAND_DISPLAY"] ?? "")
        _ = try FocusHeard.check(on: sway, open: { try WlrootsFocusSource(name: socket, reactor: $0) }, ids: { [$0] },
                                 ending: "the Wayland compositor closed the connection")
    }

    @Test func noX11ServerIsAClearError() {
        let error = #expect(throws: FocusSourceError.self) { _ = try X11FocusSource(display: ":65000", reactor: try Reactor()) }
        #expect(error?.description.contains("cannot open the X display :65000") == true, "\(String(describing: error))")
        #expect(error?.isNotNeeded == false)
    }

    @Test func noWaylandCompositorIsAClearError() throws {
        let scratch = try TemporaryDirectory(prefix: "daydream-wayland")
        let path = scratch.path + "/wayland-none"
        let error = #expect(throws: FocusSourceError.self) { _ = try WlrootsFocusSource(name: path, reactor: try Reactor()) }
        #expect(error?.description == "cannot connect to the Wayland compositor \(path)")
    }
}
