import Dispatch
import EventLoop

/// Drives a `Reactor` from the main dispatch queue, for programs that call
/// `dispatchMain()` or `RunLoop.main.run()` instead of `Reactor.run()`: a read
/// source on the epoll descriptor runs one non-blocking turn whenever it is ready.
/// It lives in the library, not in `EventLoop`, so the daemon (built on `Reactor.run()`)
/// links no Dispatch.
@MainActor
public final class MainQueueDriver {
    private let source: any DispatchSourceRead

    /// Starts driving `reactor` from `DispatchQueue.main`.
    public init(reactor: Reactor) {
        source = DispatchSource.makeReadSource(fileDescriptor: reactor.fileDescriptor, queue: .main)
        source.setEventHandler {
            MainActor.assumeIsolated { _ = reactor.runOnce(timeout: .zero) }
        }
        source.resume()
    }

    /// Stops driving the reactor.
    public func cancel() { source.cancel() }

    isolated deinit { source.cancel() }
}
