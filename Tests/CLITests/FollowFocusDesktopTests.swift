import Foundation
import Glibc
import TestSupport
import Testing

/// follow-focus on the desktops that follow the focus another way: GNOME (its Shell extension)
/// and KDE Plasma (a KWin script it loads over D-Bus).
@Suite("follow-focus on GNOME and KDE", .requires(BuiltBinary.exists, "the daydream-bridge binary is not built"))
@MainActor
struct FollowFocusDesktopTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func onGnomeItSaysToEnableTheExtensionAndExitsZero() throws {
        let result = try BuiltBinary.run(["follow-focus"], environment: ["WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "GNOME"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("gnome-extensions enable daydream-bridge@daydream-bridge"), "\(result.stderr)")
    }

    /// The extension calls the bridge's method with the names the API has (BusAPITests call it the same way).
    @Test func theGnomeExtensionCallsTheBridgesMethod() throws {
        let directory = Self.repository.appendingPathComponent("desktop/gnome-shell/daydream-bridge@daydream-bridge")
        let script = try String(contentsOf: directory.appendingPathComponent("extension.js"), encoding: .utf8)
        #expect(script.contains("'org.daydream_bridge', '/org/daydream_bridge', 'org.daydream_bridge.Bridge1'"))
        #expect(script.contains("'SetFocusedApplication', new GLib.Variant('(ss)'"))
        let metadata = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("metadata.json"))) as? [String: Any]
        #expect(metadata?["uuid"] as? String == "daydream-bridge@daydream-bridge", "the uuid is the directory's name")
    }

    /// Without KWin on the session bus, follow-focus writes the script, says KWin did not load it,
    /// and fails. (FollowFocusKWinTests runs the script in a real KWin.)
    @Test func onKdeItWritesTheKWinScriptAndSaysWhenKWinDoesNotLoadIt() throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let scratch = try TemporaryDirectory(prefix: "daydream-kwin")
        let result = try BuiltBinary.run(["follow-focus"], environment: [
            "WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "KDE", "DBUS_SESSION_BUS_ADDRESS": bus.socketAddress,
            "XDG_RUNTIME_DIR": scratch.path,
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("KWin did not load the script"), "\(result.stderr)")
        let script = try String(contentsOfFile: scratch.path + "/daydream-bridge/kwin-focus.js", encoding: .utf8)
        #expect(script.contains("callDBus(\"org.daydream_bridge\", \"/org/daydream_bridge\", \"org.daydream_bridge.Bridge1\""))
        #expect(script.contains("workspace.windowActivated") && script.contains("workspace.clientActivated"), "Plasma 6 and 5")
    }
}
