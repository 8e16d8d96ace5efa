#if canImport(Glibc)
import Glibc
#endif
import BridgeConfig
import Descriptors

/// A non-blocking IPv4 UDP socket connected to opentrack's address: each `send` is one
/// datagram. Connected, the kernel reports a peer's "port unreachable" (nobody listening) as
/// `ECONNREFUSED` on a later send, which the caller counts.
struct OpenTrackSocket: ~Copyable {
    let descriptor: FileDescriptor

    init(connectingTo address: OpenTrackAddress) throws(SystemCallError) {
        let raw = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard raw >= 0 else { throw SystemCallError("socket") }
        let owned = FileDescriptor(owning: raw)
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = address.port.bigEndian
        let octets = address.octets.map(UInt32.init)
        socketAddress.sin_addr.s_addr = (octets[0] << 24 | octets[1] << 16 | octets[2] << 8 | octets[3]).bigEndian
        let connected = withUnsafePointer(to: &socketAddress) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(raw, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw SystemCallError("connect \(address)") }
        descriptor = owned
    }

    /// Sends one datagram: 0 when it went, else the errno (`ECONNREFUSED` when nobody listens,
    /// `EAGAIN` when the buffer is full).
    func send(_ datagram: UnsafeRawBufferPointer) -> Int32 {
        let sent = retryingOnInterrupt { Glibc.send(descriptor.rawValue, datagram.baseAddress, datagram.count, Int32(MSG_NOSIGNAL)) }
        if sent == datagram.count { return 0 }
        return sent < 0 ? errno : EMSGSIZE
    }
}
