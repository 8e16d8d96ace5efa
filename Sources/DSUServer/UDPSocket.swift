#if canImport(Glibc)
import Glibc
#endif
import DSU
import Descriptors

/// A peer's IPv4 address and port, as `recvfrom` gives it.
struct UDPPeer: Hashable, Sendable, CustomStringConvertible {
    /// The address in network byte order, as `sockaddr_in` holds it.
    var address: UInt32
    /// The port in network byte order.
    var port: UInt16

    init(_ socketAddress: sockaddr_in) {
        address = socketAddress.sin_addr.s_addr
        port = socketAddress.sin_port
    }

    var socketAddress: sockaddr_in {
        var result = sockaddr_in()
        result.sin_family = sa_family_t(AF_INET)
        result.sin_addr.s_addr = address
        result.sin_port = port
        return result
    }

    var description: String {
        let host = UInt32(bigEndian: address)
        return "\(host >> 24).\(host >> 16 & 0xFF).\(host >> 8 & 0xFF).\(host & 0xFF):\(UInt16(bigEndian: port))"
    }
}

/// Why the DSU socket could not be opened.
public struct DSUSocketError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The errno of the call that failed.
    public var code: Int32
    public var description: String

    init(call: String, address: DSUListenAddress, code: Int32) {
        self.code = code
        if code == EADDRINUSE {
            description = "\(address) is in use (another DSU server, or another daydream-bridge?)"
        } else {
            let reason = strerror(code).map { String(cString: $0) } ?? "errno \(code)"
            description = "\(call) \(address): \(reason)"
        }
    }
}

/// A non-blocking IPv4 UDP socket, bound, with `IP_RECVERR` on: the ICMP errors its datagrams
/// draw are queued for `nextSendError()` (the socket's descriptor reports `EPOLLERR` while one
/// waits), and each is also reported once by the next call on the socket, which `receive` and
/// `send` absorb.
struct UDPSocket: ~Copyable {
    let descriptor: FileDescriptor

    init(binding address: DSUListenAddress) throws(DSUSocketError) {
        let raw = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard raw >= 0 else { throw DSUSocketError(call: "socket", address: address, code: errno) }
        let owned = FileDescriptor(owning: raw)
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = address.port.bigEndian
        let octets = address.octets.map(UInt32.init)
        socketAddress.sin_addr.s_addr = (octets[0] << 24 | octets[1] << 16 | octets[2] << 8 | octets[3]).bigEndian
        let bound = withUnsafePointer(to: &socketAddress) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(raw, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw DSUSocketError(call: "bind", address: address, code: errno) }
        var on: Int32 = 1
        guard setsockopt(raw, Int32(IPPROTO_IP), IP_RECVERR, &on, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw DSUSocketError(call: "setsockopt IP_RECVERR", address: address, code: errno)
        }
        descriptor = owned
    }

    /// The port bound (the one the kernel picked when asked for 0).
    var port: UInt16 {
        var socketAddress = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &socketAddress) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor.rawValue, $0, &length) }
        }
        return result == 0 ? UInt16(bigEndian: socketAddress.sin_port) : 0
    }

    /// One datagram into `buffer`: its full length (more than the buffer's when it was cut,
    /// MSG_TRUNC) and its sender; nil when none is waiting.
    func receive(into buffer: UnsafeMutableRawBufferPointer) -> (length: Int, peer: UDPPeer)? {
        var socketAddress = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        var errorAbsorbed = false
        while true {
            let received = withUnsafeMutablePointer(to: &socketAddress) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    retryingOnInterrupt { recvfrom(descriptor.rawValue, buffer.baseAddress, buffer.count, Int32(MSG_TRUNC), address, &length) }
                }
            }
            if received >= 0 { return (received, UDPPeer(socketAddress)) }
            // A pending ICMP error is reported once, ahead of the datagrams waiting: read on.
            if !errorAbsorbed && Self.mayBeReportedICMPError(errno) {
                errorAbsorbed = true
                continue
            }
            return nil
        }
    }

    /// Sends `message` to `peer`; false when the kernel refused it (a full buffer, an
    /// unreachable peer): a datagram lost, as UDP may lose any.
    func send(_ message: UnsafeRawBufferPointer, to peer: UDPPeer) -> Bool {
        var socketAddress = peer.socketAddress
        return withUnsafePointer(to: &socketAddress) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                let length = socklen_t(MemoryLayout<sockaddr_in>.size)
                var sent = sendto(descriptor.rawValue, message.baseAddress, message.count, Int32(MSG_NOSIGNAL), address, length)
                // A pending ICMP error (another peer's) fails this call instead of this datagram: again, once.
                if sent < 0 && Self.mayBeReportedICMPError(errno) {
                    sent = sendto(descriptor.rawValue, message.baseAddress, message.count, Int32(MSG_NOSIGNAL), address, length)
                }
                return sent == message.count
            }
        }
    }

    /// Whether `code` may be an ICMP error reported late rather than a failure of this call:
    /// anything but "nothing to read" and "no buffer space".
    private static func mayBeReportedICMPError(_ code: Int32) -> Bool {
        code != EAGAIN && code != EWOULDBLOCK && code != ENOBUFS
    }
}
