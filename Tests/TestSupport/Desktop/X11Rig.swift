import Foundation

/// A private X server (Xvfb) with openbox, for the duration of a test.
public final class X11Rig: FocusDesktop {
    public static let available = ["/usr/bin/Xvfb", "/usr/bin/openbox", "/usr/bin/xdotool", "/usr/bin/xmessage", "/usr/bin/xprop"]
        .allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }

    /// The server's display, `:N`.
    public let display: String
    public var environment: [String: String] { ["DISPLAY": display] }
    private let scratch: TemporaryDirectory
    private let server: RunningBinary
    private let windowManager: RunningBinary

    public init() throws {
        let scratch = try TemporaryDirectory(prefix: "daydream-x11")
        // -displayfd 1: Xvfb picks a free display and prints its number once it accepts clients.
        let server = try RunningBinary(program: "/usr/bin/Xvfb", ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "640x480x24"],
                                       directory: scratch.path, name: "xvfb")
        guard server.waitFor({ server.stdout.contains("\n") }) else { throw TestFailure("Xvfb did not start: \(server.stderr)") }
        let display = ":" + server.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let windowManager = try RunningBinary(program: "/usr/bin/openbox", ["--sm-disable"], directory: scratch.path, name: "openbox",
                                              environment: ["DISPLAY": display])
        guard windowManager.waitFor({
            (try? Self.run("/usr/bin/xprop", ["-root", "_NET_SUPPORTING_WM_CHECK"], display: display))?.contains("window id") == true
        }) else { throw TestFailure("openbox did not start: \(windowManager.stderr)") }
        (self.scratch, self.server, self.display, self.windowManager) = (scratch, server, display, windowManager)
    }

    /// An X client whose WM_CLASS instance is `name` (class `Xmessage`), once its window is mapped.
    public func client(_ name: String) throws -> RunningBinary {
        let client = try RunningBinary(program: "/usr/bin/xmessage", ["-name", name, name], directory: scratch.path, name: name,
                                       environment: ["DISPLAY": display])
        let display = display
        guard client.waitFor({
            !((try? Self.run("/usr/bin/xdotool", ["search", "--onlyvisible", "--classname", "^\(name)$"], display: display)) ?? "").isEmpty
        }) else { throw TestFailure("\(name)'s window never appeared: \(client.stderr)") }
        return client
    }

    /// Activates the window of `name` through the window manager, and waits until it is active.
    public func focus(_ name: String) throws {
        _ = try Self.run("/usr/bin/xdotool", ["search", "--onlyvisible", "--classname", "^\(name)$", "windowactivate", "--sync"], display: display)
    }

    public func stop() {
        windowManager.stop()
        server.stop()
    }

    /// `tool` on `display`; what it printed.
    @discardableResult
    public static func run(_ tool: String, _ arguments: [String], display: String) throws -> String {
        try DesktopSession.output(of: tool, arguments, environment: ["DISPLAY": display])
    }
}
