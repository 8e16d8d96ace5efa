import EventLoop
import Foundation
import TestSupport
import Testing

/// `monitor` live, in tmux, with the controller streaming from the fake bluetoothd.
@MainActor
@Suite(.serialized) struct MonitorOverBlueZTests {
    nonisolated static var tmuxAvailable: Bool { TmuxServer.available }

    /// Runs tmux on the private server `socket` (see `TmuxServer.run`).
    @discardableResult
    static func tmux(_ socket: String, _ arguments: [String]) throws -> String {
        try TmuxServer.run(socket: socket, arguments)
    }

    @Test(.requires(BuiltBinary.exists && tmuxAvailable, "needs the built binary and tmux"))
    func showsTheLiveControllerAndQuitsOnQ() throws {
        try withOneController { bus, reactor, fake in
            let socket = "daydream-monitor-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            let status = bus.directory.appendingPathComponent("monitor-status").path
            defer { _ = try? Self.tmux(socket, ["kill-server"]) }
            // The child inherits the sanitizer options (scripts/sanitize sets them): under AddressSanitizer
            // a leak at exit makes its status non-zero, which the check of the status below catches.
            let command = "env DAYDREAM_DBUS_ADDRESS='\(bus.address)' \(BuiltBinary.url.path) monitor; echo $? > \(status); sleep 30"
            _ = try Self.tmux(socket, ["new-session", "-d", "-s", "m", "-x", "100", "-y", "30", command])
            @MainActor func screen() -> String { (try? Self.tmux(socket, ["capture-pane", "-p", "-t", "m"])) ?? "" }
            @MainActor func wait(_ condition: (String) -> Bool) -> String? {
                let end = Date().addingTimeInterval(5)
                while Date() < end {
                    let text = screen()
                    if condition(text) { return text }
                    reactor.runOnce(timeout: .milliseconds(20))
                }
                return nil
            }
            #expect(wait { $0.contains("C0:DD:EE:00:00:01  connected  (live)") } != nil)
            try fake.command("send", ["address": ManagerRig.first, "hex": ManagerRig.volumeUpPacket])
            let lit = wait { $0.contains("[VOL+]") }
            #expect(lit?.contains("1 received") == true)
            try fake.command("send", ["address": ManagerRig.first, "hex": ManagerRig.restPacket])
            #expect(wait { !$0.contains("[VOL+]") && $0.contains("2 received") } != nil)
            _ = try Self.tmux(socket, ["send-keys", "-t", "m", "q"])
            let end = Date().addingTimeInterval(5)
            // The shell creates the file before `echo` writes to it: wait for the line, not the file.
            while Date() < end, !((try? String(contentsOfFile: status, encoding: .utf8)) ?? "").hasSuffix("\n") {
                reactor.runOnce(timeout: .milliseconds(20))
            }
            #expect((try? String(contentsOfFile: status, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        }
    }
}

