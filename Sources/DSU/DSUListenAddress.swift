/// Where the DSU server listens: an IPv4 address and a UDP port, written `ADDRESS:PORT`.
public struct DSUListenAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address's four bytes, most significant first.
    public var octets: [UInt8]
    public var port: UInt16

    /// `127.0.0.1:26760`, where clients look unless told otherwise.
    public static let `default` = DSUListenAddress(octets: [127, 0, 0, 1], port: DSUProtocol.defaultPort)

    public init(octets: [UInt8], port: UInt16) {
        self.octets = Array((octets + [0, 0, 0, 0]).prefix(4))
        self.port = port
    }

    /// Parses `A.B.C.D:PORT` (an IPv4 address in dotted decimal, a port 0...65535; 0 picks a
    /// free one); the error says what is wrong, in words.
    public static func parse(_ text: String) -> Result<DSUListenAddress, DSUListenAddressError> {
        guard let colon = text.lastIndex(of: ":") else {
            return .failure(DSUListenAddressError("\"\(text)\" is not ADDRESS:PORT (for example \(Self.default))"))
        }
        let host = text[..<colon]
        let portText = text[text.index(after: colon)...]
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        var octets: [UInt8] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII), let octet = UInt8(part) else { break }
            octets.append(octet)
        }
        guard parts.count == 4, octets.count == 4 else {
            return .failure(DSUListenAddressError("\"\(host)\" is not an IPv4 address in dotted decimal (for example 127.0.0.1)"))
        }
        guard !portText.isEmpty, portText.allSatisfy(\.isASCII), let port = UInt16(portText) else {
            return .failure(DSUListenAddressError("\"\(portText)\" is not a port: 0 to 65535 (DSU's is \(DSUProtocol.defaultPort))"))
        }
        return .success(DSUListenAddress(octets: octets, port: port))
    }

    /// Whether only this machine can reach the address (127.0.0.0/8).
    public var isLoopback: Bool { octets[0] == 127 }

    public var description: String {
        octets.map(String.init).joined(separator: ".") + ":\(port)"
    }
}

/// Why a listen address does not parse.
public struct DSUListenAddressError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
