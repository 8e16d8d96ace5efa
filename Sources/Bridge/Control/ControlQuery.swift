#if canImport(Glibc)
import Glibc
#endif
import Descriptors
import EventLoop
import Timebase

/// One request to the daemon's control socket that never blocks the loop: it connects (a Unix
/// socket's connect completes at once), writes the line, reads the reply as it comes and gives
/// up after `timeout`. For a view that must keep drawing, where `ControlClient` would wait.
@MainActor
public final class ControlQuery {
    private let path: String
    private var connection: FileDescriptor?
    private var watch: IOWatch?
    private var timer: ScheduledTimer?
    private var bytes: [UInt8] = []
    private var completion: (@MainActor (Result<ControlReply, ControlClientError>) -> Void)?

    /// Sends `request` to the first of `paths` where a daemon listens; `completion` runs once, on
    /// the loop (never inside this call), with the reply or why there is none. The caller keeps
    /// the query until then: one let go of is cancelled, and its completion never runs.
    public init(
        _ request: ControlRequest, paths: [String], reactor: Reactor, timeout: TimeSpan,
        completion: @escaping @MainActor (Result<ControlReply, ControlClientError>) -> Void
    ) {
        self.completion = completion
        var problem = ControlClientError.noDaemon(paths: paths)
        var chosen = paths.first ?? ""
        for path in paths {
            do {
                connection = try ControlClient.connect(path, nonBlocking: true)
                chosen = path
                break
            } catch .noDaemon {
                continue
            } catch {
                problem = error
                chosen = path
                break
            }
        }
        path = chosen
        guard let descriptor = connection?.rawValue else {
            reactor.callSoon { [weak self] in self?.finish(.failure(problem)) }
            return
        }
        guard FileOutput.write(request.line + "\n", to: descriptor) else {
            let code = errno
            reactor.callSoon { [weak self] in self?.finish(.failure(.failed(call: "write", path: chosen, code: code))) }
            return
        }
        do {
            watch = try reactor.watch(descriptor, interest: .readable) { [weak self] _ in self?.readAvailable() }
        } catch {
            reactor.callSoon { [weak self] in self?.finish(.failure(.failed(call: "epoll_ctl", path: chosen, code: error.code))) }
            return
        }
        timer = reactor.schedule(after: timeout) { [weak self] in
            self?.finish(.failure(.timedOut(path: chosen, after: timeout)))
        }
    }

    isolated deinit {
        watch?.cancel()
        timer?.cancel()
    }

    /// Whether the reply (or the failure) is still to come.
    public var isPending: Bool { completion != nil }

    private func readAvailable() {
        guard let descriptor = connection?.rawValue else { return }
        switch drainSocket(descriptor, chunkSize: 4096, into: { bytes += $0 }) {
        case .wouldBlock:
            return
        case .failed(let code):
            finish(.failure(.failed(call: "read", path: path, code: code)))
        case .closed:
            // The daemon closed the connection: the reply is complete.
            let reply = ControlReply(text: String(decoding: bytes, as: UTF8.self))
            finish(reply.map { .success($0) } ?? .failure(.badReply(path: path)))
        }
    }

    private func finish(_ result: Result<ControlReply, ControlClientError>) {
        guard let completion else { return }
        self.completion = nil
        watch?.cancel()
        watch = nil
        timer?.cancel()
        timer = nil
        try? connection.take()?.close()
        completion(result)
    }
}
