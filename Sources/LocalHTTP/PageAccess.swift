#if canImport(Glibc)
import Glibc
#endif
import Descriptors
import Timebase

/// Who may use the page. The address `ui` hands out carries a one-time token (`?token=`): valid
/// once, for a short time; the first request with it gets the session's cookie (HttpOnly,
/// SameSite=Strict) and nothing else. Every other request needs that cookie, whose secret is
/// never printed nor put in a program's arguments; a token already used, or too old, is refused.
/// Every request also needs a `Host` that is the listen address (a DNS rebinding attack names its
/// own host), and `POST`, `PUT`, `PATCH` and `DELETE` an `Origin` that is the page's own.
@MainActor
public final class PageAccess {
    /// What to do with a request.
    public enum Decision {
        /// It may go on to the page's handler.
        case allowed
        /// Answer it with this, and nothing else: a refusal (403), or the one-time token taken
        /// in exchange for the session's cookie.
        case answered(HTTPResponse)
    }

    /// The `Host` values accepted: `IP:PORT`, `localhost:PORT` on loopback, and each address
    /// the page is reached at (`PageAddresses.reachable`) with the port.
    public let hosts: [String]
    /// The cookie that carries the session, named for the port: cookies do not tell ports apart.
    public let cookieName: String
    /// How long a one-time token is valid when `issueToken` is not told otherwise.
    public static let defaultTokenLifetime = TimeSpan.seconds(60)

    /// The session's secret (`randomToken()`), only ever sent in the cookie.
    private let session: String
    /// The one-time tokens not used yet, with when each stops being valid.
    private var tokens: [(token: String, expiry: MonotonicTime)] = []

    /// Access for a page served at `address` and reached at `reachable` too (each interface's
    /// address when it listens on every one); nil when the kernel's random source cannot be read.
    public init?(address: ListenAddress, reachable: [ListenAddress] = []) {
        guard let session = Self.randomToken() else { return nil }
        self.session = session
        var hosts = [address.description]
        if address.isLoopback { hosts.append("localhost:\(address.port)") }
        for other in reachable where !hosts.contains(other.description) { hosts.append(other.description) }
        self.hosts = hosts
        cookieName = "daydream-session-\(address.port)"
    }

    /// A fresh one-time token, valid for one request within `lifetime` from `now`; nil when the
    /// kernel's random source cannot be read.
    public func issueToken(lifetime: TimeSpan = defaultTokenLifetime, now: MonotonicTime = .now()) -> String? {
        guard let token = Self.randomToken() else { return nil }
        tokens.append((token, now + lifetime))
        return token
    }

    /// A fresh token from the kernel's random source (`/dev/urandom`): 32 hex digits, 128 bits;
    /// nil when it cannot be read.
    public static func randomToken() -> String? {
        let opened = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { return nil }
        let random = FileDescriptor(owning: opened)
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = bytes.withUnsafeMutableBytes { buffer in retryingOnInterrupt { read(random.rawValue, buffer.baseAddress, buffer.count) } }
        guard count == bytes.count else { return nil }
        return bytes.map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }

    /// Whether `request` may go on, at `now`: a one-time token in it is used up here.
    public func decide(_ request: HTTPRequest, now: MonotonicTime = .now()) -> Decision {
        guard let host = request.header("Host"), hosts.contains(host.lowercased()) else {
            return .answered(.text(403, "forbidden: the Host header must be \(hosts.joined(separator: " or "))"))
        }
        tokens.removeAll { $0.expiry <= now }
        if let given = request.query["token"] {
            guard request.method == "GET", let index = tokens.firstIndex(where: { Self.equalInConstantTime(given, $0.token) }) else {
                return .answered(.text(403, "forbidden: this address was used already or is too old; run daydream-bridge ui again for a new one"))
            }
            tokens.remove(at: index)
            return .answered(exchange)
        }
        guard let given = cookieSession(request), Self.equalInConstantTime(given, session) else {
            return .answered(.text(403, "forbidden: open the address daydream-bridge ui printed"))
        }
        if ["POST", "PUT", "DELETE", "PATCH"].contains(request.method) {
            guard let origin = request.header("Origin"), hosts.contains(where: { origin == "http://\($0)" }) else {
                return .answered(.text(403, "forbidden: a change must come from the page itself (its Origin)"))
            }
        }
        return .allowed
    }

    /// The answer to a one-time token: the session's cookie, and a page that goes on to `/` at
    /// once. Going on from a page of ours rather than with a redirect makes that a same-site
    /// navigation, which carries the SameSite=Strict cookie even when the address was opened
    /// from a file or another site.
    private var exchange: HTTPResponse {
        var response = HTTPResponse(
            status: 200, headers: [("Content-Type", "text/html; charset=utf-8")],
            body: Array("<!DOCTYPE html>\n<meta http-equiv=\"refresh\" content=\"0; url=/\">\n<title>daydream-bridge</title>\n<a href=\"/\">Open the editor</a>\n".utf8))
        response.headers.append(("Set-Cookie", "\(cookieName)=\(session); Path=/; HttpOnly; SameSite=Strict"))
        return response
    }

    /// The session secret in the request's `Cookie` header, if it has our cookie.
    func cookieSession(_ request: HTTPRequest) -> String? {
        guard let header = request.header("Cookie") else { return nil }
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingPrefixSpaces == cookieName { return String(parts[1]) }
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
