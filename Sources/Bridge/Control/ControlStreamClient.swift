#if canImport(Glibc)
import Glibc
#endif
import Descriptors
import EventLoop

/// The client side of a request whose reply streams (`calibrate`, `pair`, `forget`), on the
/// loop: each line of the reply as it arrives (`ok` or `error: ...` first), and `ended` once
/// when the daemon closed the reply or went away. For the editor page, which passes them on.
@MainActor
public final class ControlStreamClient {
    private var connection: FileDescriptor?
    private var watch: IOWatch?
    private var pending: [UInt8] = []
    private let line: @MainActor (String) -> Void
    private var ended: (@MainActor (String?) -> Void)?

    /// Sends `request` to the daemon at the first of `paths` that listens; nil when none does.
    /// `ended` gets nil when the daemon finished the reply, else what went wrong reading it.
    public init?(_ request: ControlRequest, paths: [String], reactor: Reactor, line: @escaping @MainActor (String) -> Void,
                 ended: @escaping @MainActor (String?) -> Void) {
        var found: FileDescriptor?
        for candidate in paths where found == nil {
            found = try? ControlClient.connect(candidate, nonBlocking: true)
        }
        guard let descriptor = found?.rawValue else { return nil }
        self.line = line
        self.ended = ended
        connection = found.take()
        guard FileOutput.write(request.line + "\n", to: descriptor),
              let watch = try? reactor.watch(descriptor, interest: .readable, handler: { [weak self] _ in self?.readAvailable() }) else {
            try? connection.take()?.close()
            return nil
        }
        self.watch = watch
    }

    isolated deinit { watch?.cancel() }

    /// Stops reading and hangs up (the daemon then stops what only this client waited for).
    public func stop() {
        watch?.cancel()
        watch = nil
        try? connection.take()?.close()
        ended = nil
    }

    private func readAvailable() {
        guard let descriptor = connection?.rawValue else { return }
        let end = drainSocket(descriptor, chunkSize: 4096) { chunk in
            pending += chunk
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let text = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                line(text)
            }
        }
        switch end {
        case .wouldBlock: return
        case .closed: finish(nil)
        case .failed(let code): finish("the bridge's reply broke off: \(String(cString: strerror(code)))")
        }
    }

    private func finish(_ reason: String?) {
        let action = ended
        stop()
        action?(reason)
    }
}
