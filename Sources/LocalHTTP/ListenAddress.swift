#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 address and port to listen on (`127.0.0.1:7355`).
public struct ListenAddress: Equatable, Sendable, CustomStringConvertible {
    /// The four bytes, most significant first.
    public var octets: [UInt8]
    /// The port; 0 lets the kernel choose.
    public var port: UInt16

    /// `127.0.0.1:7355`.
    public static let loopbackDefault = ListenAddress(octets: [127, 0, 0, 1], port: 7355)

    /// An address with every part given.
    public init(octets: [UInt8], port: UInt16) {
        self.octets = octets
        self.port = port
    }

    /// Parses `A.B.C.D:PORT`; nil otherwise.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let port = UInt16(parts[1]) else { return nil }
        let octets = parts[0].split(separator: ".", omittingEmptySubsequences: false).compactMap { UInt8($0) }
        guard octets.count == 4, parts[0].split(separator: ".", omittingEmptySubsequences: false).count == 4 else { return nil }
        self.init(octets: octets, port: port)
    }

    /// Whether it is on 127.0.0.0/8, which only this machine reaches.
    public var isLoopback: Bool { octets.first == 127 }

    /// `A.B.C.D:PORT`.
    public var description: String { octets.map(String.init).joined(separator: ".") + ":\(port)" }

    /// The address as a `sockaddr`, for the duration of `body`.
    func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>) -> Result) -> Result {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = (UInt32(octets[0]) << 24 | UInt32(octets[1]) << 16 | UInt32(octets[2]) << 8 | UInt32(octets[3])).bigEndian
        return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    }
}
