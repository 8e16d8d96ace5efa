import Descriptors
import Timebase
#if canImport(Glibc)
import Glibc
#endif

/// Why a request to the daemon failed.
public enum ControlClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No daemon listens at any of these paths.
    case noDaemon(paths: [String])
    /// The socket exists but may not be opened by this user.
    case permissionDenied(path: String)
    /// The daemon did not answer within `after`.
    case timedOut(path: String, after: TimeSpan)
    /// The answer was not a reply.
    case badReply(path: String)
    /// Another system error.
    case failed(call: String, path: String, code: Int32)

    /// One line saying what to do.
    public var description: String {
        switch self {
        case .noDaemon(let paths):
            "no daydream-bridge daemon is running (no control socket at \(paths.joined(separator: " or "))); "
                + "start it with 'daydream-bridge run' or 'systemctl --user start daydream-bridge'"
        case .permissionDenied(let path):
            "no permission to use the daemon's control socket \(path): run as the daemon's user, or as a member of its group"
        case .timedOut(let path, let timeout):
            "the daemon did not answer on \(path) within \(timeout)"
        case .badReply(let path):
            "the daemon's answer on \(path) was not understood (a different version?)"
        case .failed(let call, let path, let code):
            "\(call) \(path): \(strerror(code).map { String(cString: $0) } ?? "errno \(code)")"
        }
    }
}

/// Sends one request to the daemon's control socket and reads the reply (blocking,
/// `replyTimeout` at most).
public enum ControlClient {
    /// How long a request waits for the daemon's reply.
    public static let replyTimeout = TimeSpan.seconds(2)

    /// Sends `request` to the first of `paths` where a daemon listens.
    public static func send(_ request: ControlRequest, paths: [String]) throws(ControlClientError) -> ControlReply {
        var firstProblem: ControlClientError?
        for path in paths {
            do {
                return try send(request, to: path)
            } catch .noDaemon {
                continue
            } catch {
                if firstProblem == nil { firstProblem = error }
            }
        }
        throw firstProblem ?? .noDaemon(paths: paths)
    }

    /// Sends `request` to the daemon at `path`.
    public static func send(_ request: ControlRequest, to path: String) throws(ControlClientError) -> ControlReply {
        try send(request, to: path, silence: replyTimeout) { _ in }
    }

    /// Sends `request`, whose reply streams, to the first of `paths` where a daemon listens;
    /// `line` sees each line after the first as it arrives. The reply, once the daemon closes it,
    /// holds them all. Fails when the daemon says nothing for `silence`.
    public static func stream(
        _ request: ControlRequest, paths: [String], silence: TimeSpan, line: (String) -> Void
    ) throws(ControlClientError) -> ControlReply {
        var firstProblem: ControlClientError?
        for path in paths {
            do {
                return try send(request, to: path, silence: silence, line: line)
            } catch .noDaemon {
                continue
            } catch {
                if firstProblem == nil { firstProblem = error }
            }
        }
        throw firstProblem ?? .noDaemon(paths: paths)
    }

    private static func send(
        _ request: ControlRequest, to path: String, silence: TimeSpan, line: (String) -> Void
    ) throws(ControlClientError) -> ControlReply {
        let connection = try connect(path)
        let descriptor = connection.rawValue
        var timeout = timeval(
            tv_sec: Int(silence.nanoseconds / 1_000_000_000),
            tv_usec: Int(silence.nanoseconds % 1_000_000_000 / 1000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard FileOutput.write(request.line + "\n", to: descriptor) else {
            throw .failed(call: "write", path: path, code: errno)
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var linesSeen = 0
        var lineStart = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in retryingOnInterrupt { read(descriptor, buffer.baseAddress, buffer.count) } }
            if count < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK { throw .timedOut(path: path, after: silence) }
                throw .failed(call: "read", path: path, code: errno)
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
            // Each whole line after the first, as soon as it is here; only the new bytes are searched.
            while let newline = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
                if linesSeen > 0 { line(String(decoding: bytes[lineStart..<newline], as: UTF8.self)) }
                linesSeen += 1
                lineStart = newline + 1
            }
        }
        // The read is done: the connection closes here, before the reply is looked at.
        _ = consume connection
        guard let reply = ControlReply(text: String(decoding: bytes, as: UTF8.self)) else { throw .badReply(path: path) }
        return reply
    }

    /// True when something accepts connections at `path` (a running daemon).
    public static func isAnswering(_ path: String) -> Bool {
        do {
            _ = try connect(path)  // and closed at once
            return true
        } catch {
            return false
        }
    }

    /// A connection to the daemon at `path` (non-blocking when asked: a Unix socket's connect
    /// still completes at once, or fails with `EAGAIN` while the daemon's backlog is full).
    static func connect(_ path: String, nonBlocking: Bool = false) throws(ControlClientError) -> FileDescriptor {
        guard let address = UnixSocketAddress(path: path) else { throw .noDaemon(paths: [path]) }
        let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        let descriptor = socket(AF_UNIX, flags, 0)
        guard descriptor >= 0 else { throw .failed(call: "socket", path: path, code: errno) }
        let connection = FileDescriptor(owning: descriptor)  // a throw below closes it
        let result = address.withSocketAddress { Glibc.connect(connection.rawValue, $0, $1) }
        guard result == 0 else {
            let code = errno
            switch code {
            case ENOENT, ECONNREFUSED, ENOTDIR: throw .noDaemon(paths: [path])
            case EACCES, EPERM: throw .permissionDenied(path: path)
            default: throw .failed(call: "connect", path: path, code: code)
            }
        }
        return connection
    }
}
