#if canImport(Glibc)
import Glibc
#endif

/// Who may use the page: a request needs the random token (in `?token=`, the
/// `X-Daydream-Token` header, or the cookie the page's first load sets, so its scripts and
/// styles load), a `Host` that is the listen address (a DNS rebinding attack names its own
/// host), and for `POST`, `PUT` and `DELETE` an `Origin` that is the page's own.
public struct PageAccess: Sendable {
    /// The token (`randomToken()`: 32 hex digits, 128 bits from the kernel's random source).
    public let token: String
    /// The `Host` values accepted: `IP:PORT`, and `localhost:PORT` on loopback.
    public let hosts: [String]

    /// The cookie that carries the token, named for the port: cookies do not tell ports apart.
    public let cookieName: String

    /// Access for a page served at `address` with `token`.
    public init(address: ListenAddress, token: String) {
        self.token = token
        var hosts = [address.description]
        if address.isLoopback { hosts.append("localhost:\(address.port)") }
        self.hosts = hosts
        cookieName = "daydream-token-\(address.port)"
    }

    /// The `Set-Cookie` value for a request that gave the token in its address: the page's own
    /// requests then carry it (never to another site, never to scripts).
    public func cookie(for request: HTTPRequest) -> String? {
        guard let given = request.query["token"], Self.equalInConstantTime(given, token) else { return nil }
        return "\(cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict"
    }

    /// The token in the request's `Cookie` header, if it has ours.
    func cookieToken(_ request: HTTPRequest) -> String? {
        guard let header = request.header("Cookie") else { return nil }
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingPrefixSpaces == cookieName { return String(parts[1]) }
        }
        return nil
    }

    /// A fresh token from the kernel's random source (`/dev/urandom`); nil when it cannot be read.
    public static func randomToken() -> String? {
        let descriptor = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count == bytes.count else { return nil }
        return bytes.map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }

    /// nil when `request` may go on; else the 403 to answer with, saying why.
    public func refusal(of request: HTTPRequest) -> HTTPResponse? {
        guard let host = request.header("Host"), hosts.contains(host.lowercased()) else {
            return .text(403, "forbidden: the Host header must be \(hosts.joined(separator: " or "))")
        }
        let given = request.query["token"] ?? request.header("X-Daydream-Token") ?? cookieToken(request) ?? ""
        guard Self.equalInConstantTime(given, token) else {
            return .text(403, "forbidden: open the address daydream-bridge ui printed, with its token")
        }
        if ["POST", "PUT", "DELETE", "PATCH"].contains(request.method) {
            guard let origin = request.header("Origin"), hosts.contains(where: { origin == "http://\($0)" }) else {
                return .text(403, "forbidden: a change must come from the page itself (its Origin)")
            }
        }
        return nil
    }

    /// Whether `a` and `b` are equal, in a time that depends only on their lengths.
    static func equalInConstantTime(_ a: String, _ b: String) -> Bool {
        let left = Array(a.utf8), right = Array(b.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }
}

extension Substring {
    /// Without the spaces a `Cookie` header puts after each `;`.
    fileprivate var trimmingPrefixSpaces: Substring { drop(while: { $0 == " " }) }
}
