import Foundation
import Glibc

/// A headless sway (wlroots) for the duration of a test. sway refuses to run as root, so as root
/// it runs as `nobody`, in a runtime directory of its own; its clients run as the same user.
public final class SwayRig: FocusDesktop {
    public static let available = ["/usr/bin/sway", "/usr/bin/swaymsg", "/usr/bin/foot"]
        .allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }

    private let scratch: TemporaryDirectory
    private let runtime: String
    private let compositor: RunningBinary
    /// WAYLAND_DISPLAY and XDG_RUNTIME_DIR for clients.
    public let environment: [String: String]
    private let ipcSocket: String

    public init() throws {
        scratch = try TemporaryDirectory(prefix: "daydream-sway")
        // sway's user reaches its runtime directory and config through the scratch directory.
        runtime = try DesktopSession.makeRuntimeDirectory(in: scratch.path)
        try "output HEADLESS-1 resolution 640x480\n".save(toFile: scratch.path + "/sway.conf")
        let base = ["XDG_RUNTIME_DIR": runtime, "HOME": runtime, "WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1"]
        compositor = try DesktopSession.runAsUser("/usr/bin/sway", ["-c", scratch.path + "/sway.conf"],
                                                  directory: scratch.path, name: "sway", environment: base)
        let runtime = runtime
        func listing() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: runtime)) ?? [] }
        guard compositor.waitFor(timeout: 15, { listing().contains { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }
                && listing().contains { $0.hasPrefix("sway-ipc") } }),
              let display = listing().first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }),
              let ipc = listing().first(where: { $0.hasPrefix("sway-ipc") }) else {
            throw TestFailure("sway did not start: \(compositor.stderr.suffix(2000))")
        }
        environment = ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": display, "HOME": runtime]
        ipcSocket = runtime + "/" + ipc
    }

    /// A foot terminal whose app_id is `appID`, once sway lists it.
    public func client(_ appID: String) throws -> RunningBinary {
        let client = try DesktopSession.runAsUser("/usr/bin/foot", ["--app-id=\(appID)", "sleep", "600"],
                                                  directory: scratch.path, name: appID, environment: environment)
        guard client.waitFor(timeout: 15, { ((try? swaymsg(["-t", "get_tree"])) ?? "").contains("\"app_id\": \"\(appID)\"") }) else {
            throw TestFailure("\(appID) never appeared in sway's tree: \(client.stderr.suffix(1000))")
        }
        return client
    }

    /// Focuses the window of `appID`.
    public func focus(_ appID: String) throws {
        let reply = try swaymsg(["[app_id=\"\(appID)\"] focus"])
        guard reply.contains("\"success\": true") else { throw TestFailure("swaymsg could not focus \(appID): \(reply)") }
    }

    public func stop() {
        compositor.stop()
    }

    /// `swaymsg` on this sway's socket; what it printed.
    @discardableResult
    public func swaymsg(_ arguments: [String]) throws -> String {
        try DesktopSession.output(of: "/usr/bin/swaymsg", ["-s", ipcSocket] + arguments)
    }
}
