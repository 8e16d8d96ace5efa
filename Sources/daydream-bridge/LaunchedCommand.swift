#if canImport(Glibc)
import Glibc
#endif
import Descriptors

/// The child of `profile NAME -- COMMAND...`, while it runs.
nonisolated(unsafe) private var launchedChild: pid_t = 0

/// Runs a command for the launch wrapper and waits for it: its standard streams and environment
/// are the wrapper's; SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to the wrapper (Steam stopping a
/// game, a terminal's Ctrl-C) are passed on to it, so the wrapper outlives it and can restore
/// the profile. Its exit status is the wrapper's to pass on, as a shell would: the command's
/// own, 128 + N when signal N killed it, 127 when it could not be started.
enum LaunchedCommand {
    static let forwardedSignals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Runs `arguments` (found on PATH) to its end; its exit status as a shell gives it.
    static func run(_ arguments: [String]) -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child starts with every signal unblocked and at its default action.
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in forwardedSignals + [SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        // A parent may have started the wrapper with these blocked (they stay blocked across exec).
        var forwarded = sigset_t()
        sigemptyset(&forwarded)
        for number in forwardedSignals { sigaddset(&forwarded, number) }
        pthread_sigmask(SIG_UNBLOCK, &forwarded, nil)
        for number in forwardedSignals {
            signal(number) { received in
                if launchedChild > 0 { kill(launchedChild, received) }
            }
        }
        defer { for number in forwardedSignals { signal(number, SIG_DFL) } }

        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let spawned = posix_spawnp(&child, arguments[0], nil, &attributes, &argv, environ)
        guard spawned == 0 else {
            printError("Error: cannot run '\(arguments[0])': \(String(cString: strerror(spawned)))")
            return 127
        }
        launchedChild = child
        defer { launchedChild = 0 }
        var status: Int32 = 0
        guard retryingOnInterrupt({ waitpid(child, &status, 0) }) >= 0 else { return ExitCode.failure }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as macros.
        let signalNumber = status & 0x7f
        return signalNumber == 0 ? (status >> 8) & 0xff : 128 + signalNumber
    }
}
