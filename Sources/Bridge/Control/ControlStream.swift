/// A reply that goes on: the daemon sends `ok` or `error: ...`, then lines as they come, and
/// finishes it; the client hanging up ends it too. Lines wait while the client is slow to read,
/// up to `maximumQueued` bytes; a client that falls further behind is dropped.
@MainActor
public final class ControlStream {
    /// How many unsent bytes a client may leave queued before it is dropped.
    public static let maximumQueued = 64 * 1024

    /// The request this stream answers.
    public let request: ControlRequest
    /// False once finished, or the client is gone.
    public private(set) var isOpen = true
    /// Runs once when the stream ends, for whichever reason.
    public var onEnd: (@MainActor () -> Void)?

    /// Where the bytes go: the server's connection to the client.
    weak var server: ControlServer?
    let descriptor: Int32
    var pending: [UInt8] = []
    var finishing = false

    init(request: ControlRequest, descriptor: Int32, server: ControlServer) {
        self.request = request
        self.descriptor = descriptor
        self.server = server
    }

    /// Sends `line` (without its newline).
    public func send(_ line: String) {
        guard isOpen, !finishing else { return }
        pending += line.utf8
        pending.append(UInt8(ascii: "\n"))
        server?.flush(self)
    }

    /// Sends what is queued, then closes the connection.
    public func finish() {
        guard isOpen, !finishing else { return }
        finishing = true
        server?.flush(self)
    }

    /// The server closed the connection.
    func ended() {
        guard isOpen else { return }
        isOpen = false
        pending = []
        let action = onEnd
        onEnd = nil
        action?()
    }
}
