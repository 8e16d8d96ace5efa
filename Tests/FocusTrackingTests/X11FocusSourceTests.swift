import EventLoop
import FocusTracking
import TestSupport
import Testing

/// The X11 source against a real X server (Xvfb) whose window manager (openbox) keeps
/// `_NET_ACTIVE_WINDOW`, with xmessage windows focused by xdotool.
@Suite("X11 focus source", .serialized, .requires(X11Rig.available, "needs Xvfb, openbox, xdotool and xmessage"))
@MainActor
struct X11FocusSourceTests {
    /// The ids are WM_CLASS's instance, then its class; the title is xmessage's, its instance.
    @Test func itTellsTheFocusNowEachChangeAndTheServerGoing() throws {
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

    @Test func noServerIsAClearError() {
        let error = #expect(throws: FocusSourceError.self) { _ = try X11FocusSource(display: ":65000", reactor: try Reactor()) }
        #expect(error?.description.contains("cannot open the X display :65000") == true, "\(String(describing: error))")
        #expect(error?.isNotNeeded == false)
    }
}
