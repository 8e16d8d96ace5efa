#if canImport(Glibc)
import Glibc
#endif
import CLinux
import Descriptors

/// An ICMP error that came back for a datagram the socket sent.
struct UDPSendError: Equatable {
    /// Where the datagram went.
    var peer: UDPPeer
    /// Whether it says nobody reads there (port, host or network unreachable, or refused by a
    /// firewall), as against a "too big" report.
    var unreachable: Bool
}

extension UDPSocket {
    /// Takes the next error queued for a datagram sent earlier (`IP_RECVERR`); nil when none waits.
    func nextSendError() -> UDPSendError? {
        var socketAddress = sockaddr_in()
        // cmsghdr, sock_extended_err and the offender's sockaddr_in: 48 bytes on 64-bit Linux.
        var control = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        let controlLength = MemoryLayout.size(ofValue: control)
        var controlReceived = 0
        let received = withUnsafeMutablePointer(to: &socketAddress) { name in
            withUnsafeMutableBytes(of: &control) { controlBytes in
                var message = msghdr()
                message.msg_name = UnsafeMutableRawPointer(name)
                message.msg_namelen = socklen_t(MemoryLayout<sockaddr_in>.size)
                message.msg_control = controlBytes.baseAddress
                message.msg_controllen = controlLength
                defer { controlReceived = min(Int(message.msg_controllen), controlLength) }
                return retryingOnInterrupt { recvmsg(descriptor.rawValue, &message, Int32(MSG_ERRQUEUE) | Int32(MSG_DONTWAIT)) }
            }
        }
        if received < 0 { return nil }
        let error = withUnsafeBytes(of: &control) { Self.extendedError(in: UnsafeRawBufferPointer(rebasing: $0[0..<controlReceived])) }
        return UDPSendError(peer: UDPPeer(socketAddress), unreachable: error.map(Self.saysUnreachable) ?? false)
    }

    /// The `sock_extended_err` of the `IP_RECVERR` control message in `control`, if there is one.
    private static func extendedError(in control: UnsafeRawBufferPointer) -> sock_extended_err? {
        let word = MemoryLayout<Int>.size
        let headerLength = (MemoryLayout<cmsghdr>.size + word - 1) & ~(word - 1)
        var offset = 0
        while offset + headerLength <= control.count {
            let header = control.loadUnaligned(fromByteOffset: offset, as: cmsghdr.self)
            let length = Int(header.cmsg_len)
            guard length >= headerLength, offset + length <= control.count else { return nil }
            if header.cmsg_level == Int32(IPPROTO_IP), header.cmsg_type == IP_RECVERR,
               length - headerLength >= MemoryLayout<sock_extended_err>.size {
                return control.loadUnaligned(fromByteOffset: offset + headerLength, as: sock_extended_err.self)
            }
            offset += (length + word - 1) & ~(word - 1)
        }
        return nil
    }

    /// Whether `error` is an ICMP report that the datagram's destination does not take it.
    private static func saysUnreachable(_ error: sock_extended_err) -> Bool {
        error.ee_origin == UInt8(SO_EE_ORIGIN_ICMP) && Int32(error.ee_errno) != EMSGSIZE
    }
}
