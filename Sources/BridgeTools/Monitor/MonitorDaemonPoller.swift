import Bridge
import EventLoop
import Timebase

/// Asks a running daemon, once a second, for its DSU server's clients and puts the answer in the
/// model; nothing when no daemon answers. Each request waits on the loop (`ControlQuery`), so
/// drawing never stalls on the socket, and a new one starts only after the last one ended.
@MainActor
public final class MonitorDaemonPoller {
    /// How often the daemon is asked.
    static let interval = TimeSpan.seconds(1)
    /// How long one answer may take before the daemon counts as not answering.
    static let timeout = TimeSpan.milliseconds(500)

    private let model: MonitorModel
    private let paths: [String]
    private let reactor: Reactor
    private var timer: ScheduledTimer?
    private var query: ControlQuery?

    /// A poller of the daemon at the first of `paths` that answers, for `model`.
    public init(model: MonitorModel, paths: [String], reactor: Reactor) {
        self.model = model
        self.paths = paths
        self.reactor = reactor
    }

    isolated deinit { timer?.cancel() }

    /// Asks now, then once a second.
    public func start() {
        poll()
    }

    /// Stops asking.
    public func stop() {
        timer?.cancel()
        timer = nil
        query = nil
    }

    private func poll() {
        timer = nil
        query = ControlQuery(.dsu, paths: paths, reactor: reactor, timeout: Self.timeout) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let reply) where reply.succeeded: self.model.dsu = reply.details
            default: self.model.dsu = nil  // no daemon, or one too old to know `dsu`
            }
            self.query = nil
            self.timer = self.reactor.schedule(after: Self.interval) { [weak self] in self?.poll() }
        }
    }
}
