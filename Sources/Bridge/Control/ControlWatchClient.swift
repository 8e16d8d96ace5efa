#if canImport(Glibc)
import Glibc
#endif
import Descriptors
import EventLoop
import Timebase

/// The client side of `watch`, on the loop: connects to the first daemon that listens, asks,
/// and hands each line to `line` as it arrives; `ended` runs once when the daemon refuses,
/// closes the stream or goes away. For views that show the bridge's controllers live (monitor,
/// the editor page) without taking the controller from it.
@MainActor
public final class ControlWatchClient {
    private var connection: FileDescriptor?
    private var watch: IOWatch?
    private var pending: [UInt8] = []
    private var answered = false
    private let line: @MainActor (WatchLine) -> Void
    private var ended: (@MainActor (String?) -> Void)?

    /// The socket it watches through.
    public let path: String

    /// Watches the daemon at the first of `paths` that listens; nil when none does. `ended` gets
    /// nil when the daemon closed the stream, else the reason (its refusal, a read error).
    public init?(paths: [String], reactor: Reactor, line: @escaping @MainActor (WatchLine) -> Void,
                 ended: @escaping @MainActor (String?) -> Void) {
        var found: FileDescriptor?
        var foundPath = ""
        for candidate in paths where found == nil {
            found = try? ControlClient.connect(candidate, nonBlocking: true)
            foundPath = candidate
        }
        guard let descriptor = found?.rawValue else { return nil }
        path = foundPath
        self.line = line
        self.ended = ended
        connection = found.take()
        guard FileOutput.write(ControlRequest.watch.line + "\n", to: descriptor),
              let watch = try? reactor.watch(descriptor, interest: .readable, handler: { [weak self] _ in self?.readAvailable() }) else {
            return nil
        }
        self.watch = watch
    }

    isolated deinit { watch?.cancel() }

    /// Stops watching (the daemon takes its taps off when the last watcher leaves).
    public func stop() {
        watch?.cancel()
        watch = nil
        try? connection.take()?.close()
        ended = nil
    }

    private func readAvailable() {
        guard let descriptor = connection?.rawValue else { return }
        let end = drainSocket(descriptor, chunkSize: 16384) { chunk in
            pending += chunk
            takeLines()
        }
        switch end {
        case .wouldBlock: return
        case .closed: finish(nil)
        case .failed(let code): finish("read \(path): \(String(cString: strerror(code)))")
        }
    }

    private func takeLines() {
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let text = String(decoding: pending[..<newline], as: UTF8.self)
            pending.removeSubrange(...newline)
            guard answered else {
                answered = true
                if text != "ok" { return finish(text.hasPrefix("error: ") ? String(text.dropFirst(7)) : "unexpected answer: \(text)") }
                continue
            }
            if let parsed = WatchLine(Substring(text)) { line(parsed) }
        }
    }

    private func finish(_ reason: String?) {
        let action = ended
        stop()
        action?(reason)
    }
}
