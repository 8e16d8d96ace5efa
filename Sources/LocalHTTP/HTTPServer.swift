#if canImport(Glibc)
import Glibc
#endif
import CHTTP
import EventLoop
import Timebase

/// Why the server did not start.
public struct HTTPServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// One line saying what failed.
    public var description: String
    init(_ description: String) { self.description = description }
}

/// An HTTP server from libmicrohttpd, driven by the project's `Reactor`: libmicrohttpd does no
/// I/O of its own (no thread), the reactor watches its epoll descriptor and runs it when that is
/// readable and when its timeout comes. The handler answers each request once its body is in;
/// a body over `maximumBody` bytes is answered 413 without reaching the handler. Event streams
/// get a comment line every `keepAlive`, so a client that left is noticed. A connection idle for
/// `idleTimeout` is closed, and past `idleLimit` connections each new one lets go of the one idle
/// longest (`ConnectionTable`): connections held open and silent never lock a client out.
@MainActor
public final class HTTPServer {
    /// How many connections libmicrohttpd takes at most.
    public nonisolated static let connectionLimit = 64
    /// How many connections stay before the idle longest is let go for a new one.
    public nonisolated static let idleLimit = 32
    /// How long a connection may stay silent (not an event stream, which is suspended) before it is closed.
    public nonisolated static let idleTimeout = 15
    /// The largest request body taken.
    public let maximumBody: Int
    /// How often open event streams get a comment line.
    public let keepAlive: TimeSpan
    /// The address it listens on, with the port the kernel chose for port 0.
    public private(set) var address: ListenAddress
    private let reactor: Reactor
    private let handler: @MainActor (HTTPRequest) -> HTTPAnswer
    private var daemon: OpaquePointer?
    private var watch: IOWatch?
    private var timer: ScheduledTimer?
    private var running = false
    private var streams: [Weak] = []
    private var keepAliveTimer: ScheduledTimer?
    /// The open connections, in a box of its own that libmicrohttpd's connection callback is
    /// given: it outlives the daemon's last call, which comes while the server is stopping.
    private let connections = Connections()

    final class Connections {
        var table = ConnectionTable(idleLimit: HTTPServer.idleLimit)
    }

    private struct Weak {
        weak var stream: EventStream?
    }

    /// Listens on `address`; `handler` answers each request.
    public init(listening address: ListenAddress, reactor: Reactor, maximumBody: Int = 64 * 1024, keepAlive: TimeSpan = .seconds(15),
                handler: @escaping @MainActor (HTTPRequest) -> HTTPAnswer) throws(HTTPServerError) {
        self.address = address
        self.reactor = reactor
        self.maximumBody = maximumBody
        self.keepAlive = keepAlive
        self.handler = handler
        guard chttp_load() == 0 else {
            throw HTTPServerError("cannot serve HTTP without libmicrohttpd (on Debian: apt install libmicrohttpd12): "
                                  + String(cString: chttp_load_error()))
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        let started = address.withSocketAddress { socketAddress in
            chttp_start(socketAddress, HTTPServer.access, context, HTTPServer.completed, Unmanaged.passUnretained(connections).toOpaque(),
                        HTTPServer.notify, Unmanaged.passUnretained(connections).toOpaque(),
                        UInt32(Self.connectionLimit), 256 * 1024, UInt32(Self.idleTimeout))
        }
        guard let started else {
            throw HTTPServerError("cannot listen on \(address): \(String(cString: strerror(errno)))")
        }
        daemon = started
        self.address.port = chttp_port(started)
        let descriptor = chttp_epoll_fd(started)
        do {
            watch = try reactor.watch(descriptor, interest: .readable) { [weak self] _ in self?.run() }
        } catch {
            chttp_stop_daemon(started)
            daemon = nil
            throw HTTPServerError("cannot watch the HTTP server: \(error)")
        }
        run()
    }

    isolated deinit { stop() }

    /// How many connections are open and not let go.
    public var openConnections: Int { connections.table.liveCount }

    /// Closes every connection and stops listening.
    public func stop() {
        timer?.cancel()
        timer = nil
        keepAliveTimer?.cancel()
        keepAliveTimer = nil
        watch?.cancel()
        watch = nil
        // libmicrohttpd aborts the process when stopped with a connection suspended, as an event
        // stream's is while it waits for its next event: resumed, they close with the rest.
        for entry in streams { entry.stream?.resumeForStop() }
        if let daemon { chttp_stop_daemon(daemon) }
        daemon = nil
    }

    /// Lets libmicrohttpd do what is ready, then waits for its next timeout.
    private func run() {
        guard let daemon, !running else { return }
        running = true
        _ = chttp_run(daemon)
        running = false
        timer?.cancel()
        timer = nil
        var milliseconds: UInt64 = 0
        if chttp_get_timeout(daemon, &milliseconds) == .YES {
            timer = reactor.schedule(after: .milliseconds(Int64(min(milliseconds, 60_000)))) { [weak self] in self?.run() }
        }
    }

    // MARK: libmicrohttpd's callbacks, on the reactor's thread inside MHD_run

    /// What one request has gathered between the handler's calls.
    final class Gathered {
        var body: [UInt8] = []
        var tooLarge = false
        var stream: EventStream?
    }

    private static let access: MHD_AccessHandlerCallback = { context, connection, url, method, _, upload, uploadSize, state in
        guard let context, let state, let uploadSize else { return .NO }
        let path = url.map { String(cString: $0) } ?? "/"
        let verb = method.map { String(cString: $0) } ?? "GET"
        // All of it is libmicrohttpd's, used only during this call, on the reactor's thread.
        nonisolated(unsafe) let server = context, link = connection, chunk = upload, size = uploadSize, place = state
        return MainActor.assumeIsolated {
            Unmanaged<HTTPServer>.fromOpaque(server).takeUnretainedValue().access(link, path, verb, chunk, size, place)
        }
    }

    private static let completed: MHD_RequestCompletedCallback = { context, connection, state, _ in
        guard let state, let gathered = state.pointee else { return }
        state.pointee = nil
        nonisolated(unsafe) let taken = Unmanaged<Gathered>.fromOpaque(gathered).takeRetainedValue()
        guard let context else { return }
        nonisolated(unsafe) let box = context, link = connection
        MainActor.assumeIsolated {
            if let link {
                let table = Unmanaged<Connections>.fromOpaque(box).takeUnretainedValue()
                table.table.active(link, at: .now())
                table.table.setStreaming(link, false)
            }
            taken.stream?.ended()
        }
    }

    /// A connection opened (the one idle longest let go when past the limit) or closed.
    private static let notify: MHD_NotifyConnectionCallback = { context, connection, _, code in
        guard let context, let connection else { return }
        nonisolated(unsafe) let box = context, link = connection
        MainActor.assumeIsolated {
            let table = Unmanaged<Connections>.fromOpaque(box).takeUnretainedValue()
            if code.rawValue == 0 {  // MHD_CONNECTION_NOTIFY_STARTED (the other: CLOSED)
                if let idle = table.table.started(link, at: .now()) { _ = chttp_shutdown_connection(idle) }
            } else {
                table.table.closed(link)
            }
        }
    }

    private func access(
        _ connection: OpaquePointer?, _ url: String, _ method: String, _ upload: UnsafePointer<CChar>?,
        _ uploadSize: UnsafeMutablePointer<Int>, _ state: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let state = state.pointee.map({ Unmanaged<Gathered>.fromOpaque($0).takeUnretainedValue() }) else {
            // The headers are in: keep a place for the body.
            state.pointee = Unmanaged.passRetained(Gathered()).toOpaque()
            if let connection { connections.table.active(connection, at: .now()) }
            return .YES
        }
        if uploadSize.pointee > 0 {
            if let upload, !state.tooLarge {
                if state.body.count + uploadSize.pointee > maximumBody {
                    state.tooLarge = true
                    state.body = []
                } else {
                    state.body += UnsafeRawBufferPointer(start: upload, count: uploadSize.pointee)
                }
            }
            uploadSize.pointee = 0
            return .YES
        }
        if state.tooLarge {
            return queue(.text(413, "the request body is over \(maximumBody) bytes"), on: connection)
        }
        let request = HTTPRequest(method: method, path: url, query: Self.values(connection, .GET_ARGUMENT_KIND),
                                  headers: Self.values(connection, .HEADER_KIND), body: state.body)
        switch handler(request) {
        case .response(let response):
            return queue(response, on: connection)
        case .eventStream(let start):
            let stream = EventStream(connection: connection) { [weak self] in
                self?.reactor.callSoon { [weak self] in self?.run() }
            }
            state.stream = stream
            streams.append(Weak(stream: stream))
            if let connection { connections.table.setStreaming(connection, true) }
            scheduleKeepAlive()
            let reader: MHD_ContentReaderCallback = { context, _, buffer, max in
                guard let context, let buffer else { return -1 }
                nonisolated(unsafe) let stream = context, target = buffer
                return MainActor.assumeIsolated { Unmanaged<EventStream>.fromOpaque(stream).takeUnretainedValue().read(into: target, max: max) }
            }
            let release: MHD_ContentReaderFreeCallback = { context in
                guard let context else { return }
                Unmanaged<EventStream>.fromOpaque(context).release()
            }
            guard let response = chttp_create_response_from_callback(UInt64.max, 4096, reader,
                                                                   Unmanaged.passRetained(stream).toOpaque(), release) else {
                return .NO
            }
            chttp_add_response_header(response, "Content-Type", "text/event-stream")
            chttp_add_response_header(response, "Cache-Control", "no-store")
            let queued = chttp_queue_response(connection, 200, response)
            chttp_destroy_response(response)
            start(stream)
            return queued
        }
    }

    /// While streams are open, a comment line to each every `keepAlive`.
    private func scheduleKeepAlive() {
        guard keepAliveTimer == nil else { return }
        keepAliveTimer = reactor.schedule(after: keepAlive) { [weak self] in
            guard let self else { return }
            self.keepAliveTimer = nil
            self.streams.removeAll { $0.stream?.isOpen != true }
            for entry in self.streams { entry.stream?.keepAlive() }
            if !self.streams.isEmpty { self.scheduleKeepAlive() }
        }
    }

    private func queue(_ response: HTTPResponse, on connection: OpaquePointer?) -> MHD_Result {
        let created = response.body.withUnsafeBytes { bytes in
            chttp_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let created else { return .NO }
        for (name, value) in response.headers { chttp_add_response_header(created, name, value) }
        chttp_add_response_header(created, "Cache-Control", "no-store")
        chttp_add_response_header(created, "X-Content-Type-Options", "nosniff")
        let queued = chttp_queue_response(connection, UInt32(response.status), created)
        chttp_destroy_response(created)
        return queued
    }

    /// Every value of `kind` on the connection, by name (the first of a repeated name).
    private static func values(_ connection: OpaquePointer?, _ kind: MHD_ValueKind) -> [String: String] {
        var collected: [String: String] = [:]
        withUnsafeMutablePointer(to: &collected) { pointer in
            let iterator: MHD_KeyValueIterator = { context, _, key, value in
                guard let context, let key else { return .YES }
                let values = context.assumingMemoryBound(to: [String: String].self)
                let name = String(cString: key)
                if values.pointee[name] == nil { values.pointee[name] = value.map { String(cString: $0) } ?? "" }
                return .YES
            }
            _ = chttp_get_connection_values(connection, kind, iterator, pointer)
        }
        return collected
    }
}
