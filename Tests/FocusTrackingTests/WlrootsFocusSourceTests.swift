import EventLoop
import FocusTracking
import TestSupport
import Testing

/// The wlroots source against a real compositor (sway, headless), with foot terminals of
/// different app_ids focused by swaymsg.
@Suite("wlroots focus source", .serialized, .requires(SwayRig.available, "needs sway, swaymsg and foot"))
@MainActor
struct WlrootsFocusSourceTests {
    /// The app_id is a window's one id.
    @Test func itTellsTheFocusNowEachChangeAndTheCompositorGoing() throws {
        let sway = try SwayRig()
        defer { sway.stop() }
        // The compositor's socket by its full path: the test's own XDG_RUNTIME_DIR is not sway's.
        let socket = (sway.environment["XDG_RUNTIME_DIR"] ?? "") + "/" + (sway.environment["WAYLAND_DISPLAY"] ?? "")
        _ = try FocusHeard.check(on: sway, open: { try WlrootsFocusSource(name: socket, reactor: $0) }, ids: { [$0] },
                                 ending: "the Wayland compositor closed the connection")
    }

    @Test func noCompositorIsAClearError() throws {
        let scratch = try TemporaryDirectory(prefix: "daydream-wayland")
        let path = scratch.path + "/wayland-none"
        let error = #expect(throws: FocusSourceError.self) { _ = try WlrootsFocusSource(name: path, reactor: try Reactor()) }
        #expect(error?.description == "cannot connect to the Wayland compositor \(path)")
    }
}
