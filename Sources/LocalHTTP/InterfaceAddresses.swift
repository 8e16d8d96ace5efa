#if canImport(Glibc)
import Glibc
#endif

/// The IPv4 addresses of this machine's interfaces that are up (`getifaddrs`), in the order the
/// kernel lists them: where a page listening on every address (`0.0.0.0`) can be reached.
public enum InterfaceAddresses {
    /// Each address's four bytes, most significant first; empty when they cannot be read.
    public static func current() -> [[UInt8]] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var result: [[UInt8]] = []
        var next: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = next {
            next = entry.pointee.ifa_next
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                  entry.pointee.ifa_flags & UInt32(IFF_UP) != 0 else { continue }
            let host = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
            result.append([UInt8(host >> 24), UInt8(host >> 16 & 0xFF), UInt8(host >> 8 & 0xFF), UInt8(host & 0xFF)])
        }
        return result
    }
}
