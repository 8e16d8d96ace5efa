import Foundation

/// tmux on a private server (`tmux -L SOCKET`), for the tests that watch the full-screen monitor
/// as a person sees it (CLITests and BlueZTests share it).
public enum TmuxServer {
    /// Whether tmux is installed.
    public static var available: Bool {
        ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `tmux -L socket -f /dev/null ARGUMENTS` with `posix_spawn` and `waitpid` (Foundation's
    /// `Process` does not always reap the tmux client) and returns what it printed (nothing when
    /// `capture` is false). Its output goes through a temporary file: a pipe would be inherited by
    /// the server tmux forks and never reach its end. The child gets standard input, output and
    /// error only, and a clean signal mask: the server keeps whatever it inherits until it is
    /// killed, tests running in parallel have pipes and sockets open that must reach their end,
    /// and the calling thread may have signals blocked.
    @discardableResult
    public static func run(socket: String, _ arguments: [String], capture: Bool = true) throws -> String {
        let outputPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("daydream-tmux-\(getpid())-\(UUID().uuidString)").path
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, capture ? outputPath : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
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
        let spawned = posix_spawnp(&pid, "tmux", &actions, &attributes, &cArguments, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        guard capture else { return "" }
        return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    /// Adds "close every descriptor from 3 up" to `actions`: glibc's
    /// `posix_spawn_file_actions_addclosefrom_np` (2.34), which Glibc's Swift module leaves out.
    private static func addCloseFromThree(_ actions: inout posix_spawn_file_actions_t) throws {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else {
            throw POSIXError(.ENOSYS)
        }
        let closeFrom = unsafeBitCast(symbol, to: CloseFrom.self)
        let result = closeFrom(&actions, 3)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
    }
}
