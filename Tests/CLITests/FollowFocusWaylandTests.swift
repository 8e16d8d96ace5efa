import Foundation
import Glibc
import TestSupport
import Testing

/// `follow-focus` in a real wlroots compositor: sway, headless, with two Wayland clients of
/// different app_ids (foot) and the focus moved by swaymsg: the replaying daemon's profile follows.
@Suite("follow-focus on wlroots", .serialized, .requires(BuiltBinary.exists && SwayRig.available, "needs sway, swaymsg and foot"))
struct FollowFocusWaylandTests {
    @Test func theProfileFollowsTheFocusedToplevel() throws {
        let sway = try SwayRig()
        defer { sway.stop() }
        let scratch = try RunCommandTests.makeDirectory()
        try FollowFocusX11Tests.config.save(toFile: scratch.path + "/config.toml")
        let socket = scratch.path + "/control"
        let daemon = try RunningBinary(
            ["run", "--replay", scratch.path + "/held.recording", "--print", "--socket", socket, "--config", scratch.path + "/config.toml"],
            directory: scratch.path)
        defer {
            daemon.signal(SIGTERM)
            _ = daemon.waitForExit()
        }
        #expect(daemon.waitFor { FollowFocusX11Tests.profile(socket).contains("desktop, connected") }, "\(daemon.stderr)")
        let game = try sway.client("xonotic-sdl")
        let notes = try sway.client("notes-app")
        defer { game.stop(); notes.stop() }

        let followerDirectory = scratch.path + "/follower"
        try FileManager.default.createDirectory(atPath: followerDirectory, withIntermediateDirectories: true)
        let follower = try RunningBinary(["follow-focus", "--socket", socket], directory: followerDirectory, environment: sway.environment)
        defer {
            follower.signal(SIGKILL)
            _ = follower.waitForExit()
        }
        #expect(follower.waitFor { follower.stderr.contains("following the focus through wlroots foreign toplevels") }, "\(follower.stderr)")

        var latencies: [Double] = []
        for (appID, expected) in [("xonotic-sdl", "shooter"), ("notes-app", "notes"), ("xonotic-sdl", "shooter")] {
            try sway.focus(appID)
            let focused = Date()
            #expect(daemon.waitFor(timeout: 10) { FollowFocusX11Tests.profile(socket).contains("\(expected), connected") },
                    "\(appID): \(FollowFocusX11Tests.profile(socket))\n\(follower.stderr)")
            latencies.append(Date().timeIntervalSince(focused) * 1000)
        }
        let other = try sway.client("unlisted")
        defer { other.stop() }
        try sway.focus("unlisted")
        #expect(daemon.waitFor(timeout: 10) { FollowFocusX11Tests.profile(socket).contains("desktop, connected") })
        print("follow-focus wlroots: focus change to profile switch, as seen through the socket: "
            + latencies.map { String(format: "%.0f ms", $0) }.joined(separator: ", "))
        #expect(follower.process.isRunning, "\(follower.stderr)")
    }
}

/// A headless sway (wlroots) for the duration of a test. sway refuses to run as root, so as root
/// it runs as `nobody`, in a runtime directory of its own; its clients run as the same user.
final class SwayRig {
    static let available = ["/usr/bin/sway", "/usr/bin/swaymsg", "/usr/bin/foot"]
        .allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }

    private let scratch: TemporaryDirectory
    private let runtime: String
    private let compositor: RunningBinary
    /// WAYLAND_DISPLAY and XDG_RUNTIME_DIR for clients.
    let environment: [String: String]
    private let ipcSocket: String

    init() throws {
        scratch = try TemporaryDirectory(prefix: "daydream-sway")
        runtime = scratch.path + "/runtime"
        _ = chmod(scratch.path, 0o755)  // sway's user reaches its runtime directory and config through it
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        if getuid() == 0 { _ = chown(runtime, 65534, 65534) }
        _ = chmod(runtime, 0o700)
        try "output HEADLESS-1 resolution 640x480\n".save(toFile: scratch.path + "/sway.conf")
        let base = ["XDG_RUNTIME_DIR": runtime, "HOME": runtime, "WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1"]
        compositor = try RunningBinary(program: Self.asUser[0], Array(Self.asUser.dropFirst()) + ["/usr/bin/sway", "-c", scratch.path + "/sway.conf"],
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

    /// `setpriv` to nobody when root (sway's clients run as its user), else nothing.
    static var asUser: [String] {
        getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : ["/usr/bin/env"]
    }

    /// A foot terminal whose app_id is `appID`, once sway lists it.
    func client(_ appID: String) throws -> RunningBinary {
        let client = try RunningBinary(program: Self.asUser[0], Array(Self.asUser.dropFirst()) + ["/usr/bin/foot", "--app-id=\(appID)", "sleep", "600"],
                                       directory: scratch.path, name: appID, environment: environment)
        guard client.waitFor(timeout: 15, { ((try? swaymsg(["-t", "get_tree"])) ?? "").contains("\"app_id\": \"\(appID)\"") }) else {
            throw TestFailure("\(appID) never appeared in sway's tree: \(client.stderr.suffix(1000))")
        }
        return client
    }

    /// Focuses the window of `appID`.
    func focus(_ appID: String) throws {
        let reply = try swaymsg(["[app_id=\"\(appID)\"] focus"])
        guard reply.contains("\"success\": true") else { throw TestFailure("swaymsg could not focus \(appID): \(reply)") }
    }

    func stop() {
        compositor.stop()
    }

    @discardableResult
    func swaymsg(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/swaymsg")
        process.arguments = ["-s", ipcSocket] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
