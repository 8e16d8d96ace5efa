import CHTTP

/// One Server-Sent Events client: events are queued and written as the connection takes them;
/// a client that falls `maximumQueued` bytes behind is closed rather than queued without bound.
/// While nothing is queued its connection is suspended, so the server never spins on it.
@MainActor
public final class EventStream {
    /// How many unsent bytes a client may leave queued before it is closed.
    public static let maximumQueued = 256 * 1024

    /// False once closed by either side.
    public private(set) var isOpen = true
    /// Runs once when the stream ends (the client left, or `close`).
    public var onClose: (@MainActor () -> Void)?

    var pending: [UInt8] = []
    var finishing = false
    /// The connection, while the server has it.
    var connection: OpaquePointer?
    var suspended = false
    /// Has the server run libmicrohttpd soon, to take a resumed connection back.
    let wakeServer: @MainActor () -> Void

    init(connection: OpaquePointer?, wakeServer: @escaping @MainActor () -> Void) {
        self.connection = connection
        self.wakeServer = wakeServer
    }

    /// Sends one event: `event: NAME` when given, then `data:` lines.
    public func send(_ data: String, event: String? = nil) {
        guard isOpen, !finishing else { return }
        var text = event.map { "event: \($0)\n" } ?? ""
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
        pending += (text + "\n").utf8
        if pending.count > Self.maximumQueued {
            pending = []
            finishing = true
        }
        wake()
    }

    /// Sends a comment line, which clients ignore: a client that left is noticed when it fails
    /// (a suspended connection's hang-up is not seen otherwise).
    func keepAlive() {
        guard isOpen, !finishing, pending.isEmpty else { return }
        pending += ":\n\n".utf8
        wake()
    }

    /// Ends the stream once what is queued is sent.
    public func close() {
        guard isOpen else { return }
        finishing = true
        wake()
    }

    private func wake() {
        guard suspended, let connection else { return }
        suspended = false
        chttp_resume_connection(connection)
        wakeServer()
    }

    /// Resumes a waiting connection without waking the server, which is stopping and closes it.
    func resumeForStop() {
        guard suspended, let connection else { return }
        suspended = false
        chttp_resume_connection(connection)
    }

    /// libmicrohttpd asks for up to `max` bytes: what is queued, the end, or nothing yet (the
    /// connection is suspended until `send` or `close`).
    func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        if pending.isEmpty {
            if finishing { return -1 }  // MHD_CONTENT_READER_END_OF_STREAM
            if let connection {
                suspended = true
                chttp_suspend_connection(connection)
            }
            return 0
        }
        let count = min(max, pending.count)
        pending.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: count)
        }
        pending.removeFirst(count)
        return count
    }

    /// The server let go of the connection.
    func ended() {
        guard isOpen else { return }
        isOpen = false
        connection = nil
        pending = []
        let action = onClose
        onClose = nil
        action?()
    }
}
