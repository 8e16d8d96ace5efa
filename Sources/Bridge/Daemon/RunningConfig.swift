import BridgeConfig
import EventLoop
import Mapping

/// The configuration the daemon runs, and where it came from: read again when its file changes
/// (inotify, `ConfigWatcher`) or on a `reload`, and handed to `replace` only when valid; a config
/// with errors leaves the running one, and says why.
@MainActor
final class RunningConfig {
    private let reactor: Reactor
    private var reloader: ConfigReloader
    private var watcher: ConfigWatcher?
    private var watcherWatch: IOWatch?
    /// Called with a valid new configuration and the one it replaces, to swap it in (release,
    /// adapt devices, sessions).
    var replace: (@MainActor (_ new: LoadedConfig, _ old: MappingConfiguration) -> Void)?
    /// Called after each reading with what came of it (after `replace`, when it reloaded).
    var read: (@MainActor (ConfigReloader.Outcome) -> Void)?
    /// Called before and after reading, for systemd's status.
    var reading: (@MainActor (_ started: Bool) -> Void)?

    /// `loaded` running, on `reactor`.
    init(_ loaded: LoadedConfig, reactor: Reactor) {
        self.reactor = reactor
        reloader = ConfigReloader(current: loaded)
    }

    /// The configuration running now.
    var configuration: MappingConfiguration { reloader.current.configuration }
    /// How the running config is named in the log.
    var description: String { "\(reloader.current.source)" }

    /// Watches the file for changes (when the config is a file); a watcher that cannot start is
    /// logged, and `reload` still works.
    func startWatching() {
        guard case .file(let path) = reloader.source else { return }
        do {
            let watcher = try ConfigWatcher(path: path)
            watcherWatch = try reactor.watch(watcher.fileDescriptor, interest: .readable) { [weak self] _ in
                guard let self, let watcher = self.watcher, watcher.readEvents() else { return }
                Logger.info("\(path) changed: reloading")
                self.readAgain()
            }
            self.watcher = watcher
        } catch {
            Logger.warning("not watching the config for changes (SIGHUP still reloads): \(error)")
        }
    }

    /// Stops watching the file.
    func stopWatching() {
        watcherWatch?.cancel()
        watcherWatch = nil
        watcher = nil
    }

    /// A reload by request: makes the watcher's watches again from scratch (or starts it, when it
    /// could not start before), whatever it saw meanwhile, then reads the config again.
    func reload() -> ConfigReloader.Outcome {
        if let watcher { watcher.rearm() } else { startWatching() }
        return readAgain()
    }

    /// Reads and validates the config again; hands it to `replace` when valid, keeps the running
    /// one and logs why when not.
    @discardableResult
    private func readAgain() -> ConfigReloader.Outcome {
        reading?(true)
        defer { reading?(false) }
        let old = reloader.current.configuration
        let outcome = reloader.reload()
        switch outcome {
        case .unchanged:
            Logger.info("config unchanged")
        case .kept(let reasons):
            Logger.warning("the new config has errors, so the running one stays:\n" + reasons.joined(separator: "\n"))
        case .reloaded(let loaded):
            replace?(loaded, old)
            Logger.notice("config reloaded from \(loaded.source); profiles: \(ConfigurationChoice.profileList(loaded.configuration))")
        }
        read?(outcome)
        return outcome
    }
}
