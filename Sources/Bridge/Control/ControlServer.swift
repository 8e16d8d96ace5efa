#if canImport(Glibc)
import Glibc
#endif
import Descriptors
import EventLoop
import Timebase

/// Why the control socket could not be opened.
public struct ControlSocketError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The message, one line.
    public var description: String

    init(_ description: String) { self.description = description }

    init(call: String, path: String, code: Int32) {
        let reason = strerror(code).map { String(cString: $0) } ?? "errno \(code)"
        description = "\(call) \(path): \(reason)"
    }
}

/// The daemon's control socket: a Unix stream socket on the event loop. Each connection sends one
/// request line and gets one reply (see `ControlRequest`), then the daemon closes it; a request whose
/// reply streams gets a `ControlStream` the daemon writes to until it finishes. A client that
/// sends nothing for two seconds is dropped. Created with mode 0660 in a directory made 0700 when new;
/// a directory that is not the daemon user's alone (`ControlSocketDirectory`) is refused.
///
/// At most `maximumClients` are served at once; while that many are connected, or while `accept`
/// fails for want of descriptors, the listener is paused (its watch waits for nothing), so a flood
/// of clients waits in the backlog instead of spinning the loop on a listener that stays readable.
@MainActor
public final class ControlServer {
    /// How many clients are served at once; more wait for one of them to finish.
    public static let maximumClients = 16
    /// How long the listener pauses after `accept` found no descriptor free.
    static let retryAfterNoDescriptor = TimeSpan.milliseconds(250)

    /// The socket's path.
    public let path: String
    private let reactor: Reactor
    private let handler: @MainActor (ControlRequest) -> ControlReply
    private let streamHandler: (@MainActor (ControlStream) -> Void)?
    private var listener: FileDescriptor?
    /// The socket file this server made: the only file at `path` it removes.
    private var socketFile: SocketFile?
    private var listenWatch: IOWatch?
    private var clients: [Int32: Client] = [:]
    /// Set while `accept` is paused for want of descriptors: the timer that resumes it.
    private var acceptRetry: ScheduledTimer?
    /// Whether the last `accept` failed for want of descriptors (logged once until one succeeds).
    private var acceptFailing = false

    private final class Client {
        /// Owned until `drop` closes it.
        var socket: FileDescriptor?
        var buffer: [UInt8] = []
        var watch: IOWatch?
        var timeout: ScheduledTimer?
        /// Set once the request's reply streams.
        var stream: ControlStream?
    }

    /// Listens at `path`; a stale socket left by a crashed daemon is replaced, a live one is an
    /// error, and so is anything at `path` that is not a socket (it is left as it is). Requests
    /// whose replies stream go to `streamHandler` (none: they are refused).
    public init(
        path: String, reactor: Reactor, handler: @escaping @MainActor (ControlRequest) -> ControlReply,
        streamHandler: (@MainActor (ControlStream) -> Void)? = nil
    ) throws(ControlSocketError) {
        self.path = path
        self.reactor = reactor
        self.handler = handler
        self.streamHandler = streamHandler
        guard let address = UnixSocketAddress(path: path) else {
            throw ControlSocketError("the control socket path is too long: \(path)")
        }
        try Self.makeParentDirectory(of: path)
        if ControlClient.isAnswering(path) {
            throw ControlSocketError("another daydream-bridge is already running (its control socket \(path) answers)")
        }
        if SocketFile(at: path) != nil {
            unlink(path)  // stale: left by a daemon that is gone
        } else if SocketFile.somethingExists(at: path) {
            throw ControlSocketError("\(path) exists and is not a socket, so it is left alone: choose another --socket path")
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ControlSocketError(call: "socket", path: path, code: errno) }
        // Until it listens, a throw closes it with this owner (`listener` is still nil, so the
        // `deinit` that a throw runs leaves the path alone).
        let listening = FileDescriptor(owning: descriptor)
        let previousMask = umask(0o117)
        let bound = address.withSocketAddress { bind(listening.rawValue, $0, $1) }
        let bindError = errno
        umask(previousMask)
        guard bound == 0 else { throw ControlSocketError(call: "bind", path: path, code: bindError) }
        guard listen(listening.rawValue, 8) == 0 else {
            let code = errno
            unlink(path)
            throw ControlSocketError(call: "listen", path: path, code: code)
        }
        listener = consume listening
        socketFile = SocketFile(at: path)
        do {
            listenWatch = try reactor.watch(descriptor, interest: .readable) { [weak self] _ in self?.acceptClients() }
        } catch {
            // `deinit` runs when this throws (every stored property is set), and its `close()`
            // closes the listener and removes the socket file.
            throw ControlSocketError("cannot watch the control socket: \(error)")
        }
    }

    /// Stops listening, drops every client and removes the socket file, if the file at `path` is
    /// still the one this server made (not another daemon's, made there after this one's was deleted).
    public func close() {
        for descriptor in Array(clients.keys) { drop(descriptor) }
        acceptRetry?.cancel()
        acceptRetry = nil
        listenWatch?.cancel()
        listenWatch = nil
        if let listener = listener.take() {
            // A socket's close fails only for a bad descriptor, which an owned one is not.
            try? listener.close()
            if let socketFile, SocketFile(at: path) == socketFile { unlink(path) }
            socketFile = nil
        }
    }

    isolated deinit { close() }

    /// Makes the socket's directory (0700) unless it is there, then checks it is this user's
    /// alone (`ControlSocketDirectory`), whoever made it.
    private static func makeParentDirectory(of path: String) throws(ControlSocketError) {
        let directory = ControlSocketDirectory.of(path)
        if mkdir(directory, 0o700) != 0, errno != EEXIST {
            throw ControlSocketError(call: "mkdir", path: directory, code: errno)
        }
        try ControlSocketDirectory.check(directory)
    }

    private func acceptClients() {
        guard let listening = listener?.rawValue else { return }
        while clients.count < Self.maximumClients {
            let descriptor = retryingOnInterrupt { accept(listening, nil, nil) }
            guard descriptor >= 0 else {
                let code = errno
                if code == ECONNABORTED { continue }
                if code != EAGAIN && code != EWOULDBLOCK { pauseAccepting(code) }
                return
            }
            acceptFailing = false
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            let client = Client()
            client.socket = FileDescriptor(owning: descriptor)
            clients[descriptor] = client
            do {
                client.watch = try reactor.watch(descriptor, interest: .readable) { [weak self] events in
                    if events.contains(.writable) { self?.flushClient(descriptor) }
                    if !events.subtracting(.writable).isEmpty { self?.read(descriptor) }
                }
            } catch {
                Logger.warning("control socket: cannot watch a client: \(error)")
                drop(descriptor)
                continue
            }
            client.timeout = reactor.schedule(after: .seconds(2)) { [weak self] in self?.drop(descriptor) }
        }
        updateListening()
    }

    /// `accept` failed (out of descriptors, most likely): waiting clients stay in the backlog
    /// and the listener rests a while, instead of waking the loop again at once.
    private func pauseAccepting(_ code: Int32) {
        guard acceptRetry == nil else { return }
        let reason = strerror(code).map { String(cString: $0) } ?? "errno \(code)"
        if acceptFailing {
            Logger.debug("control socket: cannot accept a client (\(reason))")
        } else {
            acceptFailing = true
            Logger.warning("control socket: cannot accept a client (\(reason)); it waits, trying again shortly")
        }
        acceptRetry = reactor.schedule(after: Self.retryAfterNoDescriptor) { [weak self] in
            guard let self else { return }
            self.acceptRetry = nil
            self.updateListening()
        }
        updateListening()
    }

    /// Listens while there is room for a client and `accept` is not resting.
    private func updateListening() {
        guard let listenWatch else { return }
        listenWatch.interest = clients.count < Self.maximumClients && acceptRetry == nil ? .readable : []
    }

    private func read(_ descriptor: Int32) {
        guard let client = clients[descriptor] else { return }
        var chunk = [UInt8](repeating: 0, count: 256)
        let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        if count < 0, errno == EAGAIN || errno == EINTR { return }
        guard count > 0 else { return drop(descriptor) }
        // A streaming client has said its request: anything more it sends is ignored.
        guard client.stream == nil else { return }
        client.buffer += chunk[0..<count]
        if let newline = client.buffer.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: client.buffer[..<newline], as: UTF8.self)
            handle(line, from: descriptor, client)
        } else if client.buffer.count > ControlRequest.maximumLength {
            answer(descriptor, .error("request too long"))
        }
    }

    private func handle(_ line: String, from descriptor: Int32, _ client: Client) {
        switch ControlRequest.parse(line) {
        case .success(let request):
            Logger.debug("control socket: \(request.line)")
            guard request.streamsReply else { return answer(descriptor, handler(request)) }
            guard let streamHandler else { return answer(descriptor, .error("this daemon cannot answer '\(request.line)'")) }
            // A stream lasts as long as the daemon has something to say.
            client.timeout?.cancel()
            client.timeout = nil
            let stream = ControlStream(request: request, descriptor: descriptor, server: self)
            client.stream = stream
            streamHandler(stream)
        case .failure(let error):
            answer(descriptor, .error(error.message))
        }
    }

    /// Writes what `stream` has queued, as much as the socket takes; closes when it is finished
    /// and all sent, and drops a client that lets too much pile up.
    func flush(_ stream: ControlStream) {
        guard let client = clients[stream.descriptor], client.stream === stream else { return }
        flushClient(stream.descriptor)
    }

    private func flushClient(_ descriptor: Int32) {
        guard let client = clients[descriptor], let stream = client.stream else { return }
        while !stream.pending.isEmpty {
            let written = stream.pending.withUnsafeBytes { bytes in
                retryingOnInterrupt { Glibc.send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
            }
            if written < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                return drop(descriptor)
            }
            stream.pending.removeFirst(written)
        }
        if stream.pending.count > ControlStream.maximumQueued {
            Logger.warning("control socket: a client fell \(stream.pending.count) bytes behind '\(stream.request.line)'; dropped")
            return drop(descriptor)
        }
        if stream.pending.isEmpty && stream.finishing { return drop(descriptor) }
        client.watch?.interest = stream.pending.isEmpty ? .readable : [.readable, .writable]
    }

    /// Writes the reply (small enough for the socket buffer: one write) and closes.
    private func answer(_ descriptor: Int32, _ reply: ControlReply) {
        FileOutput.write(reply.text, to: descriptor)
        drop(descriptor)
    }

    private func drop(_ descriptor: Int32) {
        guard let client = clients.removeValue(forKey: descriptor) else { return }
        client.watch?.cancel()
        client.timeout?.cancel()
        try? client.socket.take()?.close()
        updateListening()
        client.stream?.ended()
    }
}
