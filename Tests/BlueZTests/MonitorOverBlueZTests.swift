import EventLoop
import Foundation
import Testing

/// `monitor` live, in tmux, with the controller streaming from the fake bluetoothd.
@MainActor
@Suite(.serialized) struct MonitorOverBlueZTests {
    nonisolated static var tmuxAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") }

    /// Runs tmux on a private server with `posix_spawn` and `waitpid` (Foundation's `Process` does not
    /// always reap the tmux client), with a clean signal mask, its output through a file, and no
    /// descriptor but standard input, output and error: the server keeps what it inherits until it
    /// is killed, and tests running in parallel have pipes open that must reach their end.
    static func tmux(_ socket: String, _ arguments: [String], directory: URL) throws -> String {
        let output = directory.appendingPathComponent("tmux-\(UUID().uuidString)").path
        defer { unlink(output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        try addCloseFromThree(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let argv = ["tmux", "-L", socket, "-f", "/dev/null"] + arguments
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/usr/bin/tmux", &actions, &attributes, &cArguments, environ)
        guard spawned == 0 else { throw TestFailure("cannot start tmux: \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }

    @Test(.enabled(if: CommandTests.binaryExists && tmuxAvailable, "needs the built binary and tmux"))
    func showsTheLiveControllerAndQuitsOnQ() throws {
        try withOneController { bus, reactor, fake in
            let socket = "daydream-monitor-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            let status = bus.directory.appendingPathComponent("monitor-status").path
            defer { _ = try? Self.tmux(socket, ["kill-server"], directory: bus.directory) }
            // The child inherits the sanitizer options (scripts/sanitize sets them): under AddressSanitizer
            // a leak at exit makes its status non-zero, which the check of the status below catches.
            let command = "env DAYDREAM_DBUS_ADDRESS='\(bus.address)' \(CommandTests.binary.path) monitor; echo $? > \(status); sleep 30"
            _ = try Self.tmux(socket, ["new-session", "-d", "-s", "m", "-x", "100", "-y", "30", command], directory: bus.directory)
            @MainActor func screen() -> String { (try? Self.tmux(socket, ["capture-pane", "-p", "-t", "m"], directory: bus.directory)) ?? "" }
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
            _ = try Self.tmux(socket, ["send-keys", "-t", "m", "q"], directory: bus.directory)
            let end = Date().addingTimeInterval(5)
            // The shell creates the file before `echo` writes to it: wait for the line, not the file.
            while Date() < end, !((try? String(contentsOfFile: status, encoding: .utf8)) ?? "").hasSuffix("\n") {
                reactor.runOnce(timeout: .milliseconds(20))
            }
            #expect((try? String(contentsOfFile: status, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        }
    }
}

/// Adds "close every descriptor from 3 up" to `actions`: glibc's
/// `posix_spawn_file_actions_addclosefrom_np` (2.34), which Glibc's Swift module leaves out.
func addCloseFromThree(_ actions: inout posix_spawn_file_actions_t) throws {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
    guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else {
        throw POSIXError(.ENOSYS)
    }
    let closeFrom = unsafeBitCast(symbol, to: CloseFrom.self)
    let result = closeFrom(&actions, 3)
    guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
}
