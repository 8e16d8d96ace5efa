#if canImport(Glibc)
import Glibc
#endif
import Descriptors
import EventLoop

/// The signals' door (through the loop's signalfd): SIGTERM and SIGINT shut the daemon down
/// (release, destroy the devices, stop the loop); SIGHUP is `reload`, SIGUSR1 `nextProfile`.
@MainActor
enum DaemonSignals {
    /// Handles the four signals on `reactor` for `daemon`.
    static func install(on reactor: Reactor, for daemon: BridgeDaemon) throws(SystemCallError) {
        for number in [SIGTERM, SIGINT] {
            try reactor.handleSignal(number) { [weak daemon] signal in
                Logger.info("\(signal == SIGTERM ? "SIGTERM" : "SIGINT"): stopping")
                daemon?.shutdown()
            }
        }
        try reactor.handleSignal(SIGHUP) { [weak daemon] _ in
            Logger.info("SIGHUP: reloading the config")
            daemon?.perform(.reload) // the outcome is logged as the config is read
        }
        try reactor.handleSignal(SIGUSR1) { [weak daemon] _ in
            Logger.info("SIGUSR1: next profile")
            if case .failure(let refusal) = daemon?.perform(.nextProfile(controller: nil)) {
                Logger.warning("SIGUSR1: \(refusal.message)")
            }
        }
    }
}
