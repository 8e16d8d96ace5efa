import Descriptors
#if canImport(Glibc)
import Glibc
#endif

/// Tells systemd's service manager how the service is doing, by the
/// protocol of sd_notify(3), without libsystemd: one datagram of
/// newline-separated `KEY=VALUE` fields to the `AF_UNIX` socket named by
/// `$NOTIFY_SOCKET` (a path, or an abstract name written with a leading `@`).
///
/// Used by a `Type=notify` unit: `READY=1` once running, `STATUS=...` for
/// `systemctl status`, `RELOADING=1` then `READY=1` around a reload,
/// `STOPPING=1` on the way out.
public final class ServiceNotifier {
    /// The socket address as given (`/run/systemd/notify` or `@name`).
    public let socketName: String
    private var address: sockaddr_un
    private let addressLength: socklen_t
    private let socket: FileDescriptor

    /// The notifier for `$NOTIFY_SOCKET`; nil when the variable is unset or
    /// empty (not started by systemd, or no `Type=notify`).
    public static func fromEnvironment() throws(ServiceNotifierError) -> ServiceNotifier? {
        try ServiceNotifier(notifySocket: getenv("NOTIFY_SOCKET").map { String(cString: $0) })
    }

    /// The notifier for a value of `$NOTIFY_SOCKET`; nil when it is nil or empty.
    public convenience init?(notifySocket value: String?) throws(ServiceNotifierError) {
        guard let value, !value.isEmpty else { return nil }
        try self.init(socketName: value)
    }

    /// A notifier for the socket `socketName`: a filesystem path, or an
    /// abstract name with a leading `@`.
    public init(socketName: String) throws(ServiceNotifierError) {
        guard socketName.hasPrefix("/") || socketName.hasPrefix("@") else {
            throw .unsupportedAddress(socketName)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(socketName.utf8)
        let isAbstract = bytes.first == UInt8(ascii: "@")
        if isAbstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        // A path needs room for its NUL; an abstract name is counted exactly.
        guard bytes.count + (isAbstract ? 0 : 1) <= capacity, !bytes.contains(0) || isAbstract else {
            throw .unsupportedAddress(socketName)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            path.copyBytes(from: bytes)
        }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2
        addressLength = socklen_t(pathOffset + bytes.count + (isAbstract ? 0 : 1))
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .sendFailed(socketName, errno: errno) }
        socket = FileDescriptor(owning: fd)
        self.address = address
        self.socketName = socketName
    }

    /// `READY=1`, with a status line if given: startup is complete.
    public func ready(status: String? = nil) throws(ServiceNotifierError) {
        try send(["READY=1"] + Self.statusField(status))
    }

    /// `STATUS=...`: one line shown by `systemctl status`.
    public func status(_ text: String) throws(ServiceNotifierError) {
        try send(Self.statusField(text))
    }

    /// `RELOADING=1` and the monotonic time, as systemd 253+ asks: a reload
    /// has begun; send `ready()` when it is done.
    public func reloading(status: String? = nil) throws(ServiceNotifierError) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let microseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        try send(["RELOADING=1", "MONOTONIC_USEC=\(microseconds)"] + Self.statusField(status))
    }

    /// `STOPPING=1`: shutdown has begun.
    public func stopping(status: String? = nil) throws(ServiceNotifierError) {
        try send(["STOPPING=1"] + Self.statusField(status))
    }

    /// Sends `fields` (each `KEY=VALUE`, no newlines) as one datagram.
    public func send(_ fields: [String]) throws(ServiceNotifierError) {
        let message = Array(fields.joined(separator: "\n").utf8)
        let result = message.withUnsafeBytes { bytes in
            withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                    sendto(socket.rawValue, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), socketAddress, addressLength)
                }
            }
        }
        if result < 0 { throw .sendFailed(socketName, errno: errno) }
    }

    /// A `STATUS=` field on one line (newlines would start new fields).
    private static func statusField(_ text: String?) -> [String] {
        guard let text else { return [] }
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return ["STATUS=\(line)"]
    }
}

/// Why systemd could not be notified.
public enum ServiceNotifierError: Error, Equatable, CustomStringConvertible {
    /// `$NOTIFY_SOCKET` is not a path or an abstract name that fits in `sockaddr_un`
    /// (e.g. a `vsock:` address, which this bridge does not speak).
    case unsupportedAddress(String)
    /// `socket(2)` or `sendto(2)` failed (errno).
    case sendFailed(String, errno: Int32)

    public var description: String {
        switch self {
        case .unsupportedAddress(let name):
            "cannot notify systemd: NOTIFY_SOCKET=\(name) is not an AF_UNIX path or @abstract name"
        case .sendFailed(let name, let code):
            "cannot notify systemd at \(name): \(String(cString: strerror(code)))"
        }
    }
}
