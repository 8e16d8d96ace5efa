import EventLoop
import Foundation
import LocalHTTP
import TestSupport
import Testing
import Timebase

/// The editor page's server: libmicrohttpd on the test's reactor, asked by real curl processes
/// while the loop turns. The page's rules (token, Host, Origin, body size, files) and Server-Sent
/// Events to several clients.
@Suite("local HTTP server", .serialized, .requires(FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "needs curl"))
@MainActor
struct LocalHTTPTests {
    @MainActor
    final class Rig {
        let reactor: Reactor
        let scratch: TemporaryDirectory
        let access: PageAccess
        var server: HTTPServer?
        var received: [HTTPRequest] = []
        var streams: [EventStream] = []
        var closed = 0

        /// `reachable`: the addresses (besides the listen address) the page says it is reached
        /// at, as `ui --listen 0.0.0.0:PORT` finds its interfaces'; the port is the server's.
        init(reachable: [[UInt8]] = []) throws {
            reactor = try Reactor()
            scratch = try TemporaryDirectory(prefix: "daydream-http")
            try FileManager.default.createDirectory(atPath: scratch.path("web"), withIntermediateDirectories: true)
            try scratch.write("web/index.html", "<h1>page</h1>\n")
            try scratch.write("web/app.js", "let a = 1;\n")
            try scratch.write("web/notes.txt", "not served\n")
            try scratch.write("secret.html", "outside\n")
            try FileManager.default.createSymbolicLink(atPath: scratch.path("web/out.html"), withDestinationPath: "../secret.html")
            let files = try #require(PageFiles(directory: scratch.path("web")))
            let server = try HTTPServer(listening: ListenAddress(octets: [127, 0, 0, 1], port: 0), reactor: reactor, maximumBody: 1024) { _ in
                .response(.text(500, "not ready"))
            }
            access = try #require(PageAccess(
                address: server.address, reachable: reachable.map { ListenAddress(octets: $0, port: server.address.port) }))
            server.stop()
            self.server = try HTTPServer(listening: server.address, reactor: reactor, maximumBody: 1024,
                                         keepAlive: .milliseconds(50)) { [unowned self] request in
                if case .answered(let response) = self.access.decide(request) { return .response(response) }
                self.received.append(request)
                switch request.path {
                case "/api/echo": return .response(.json(200, .string(request.formFields["value"] ?? "")))
                case "/api/events":
                    return .eventStream { [unowned self] stream in
                        stream.onClose = { [unowned self] in self.closed += 1 }
                        self.streams.append(stream)
                        stream.send("hello")
                    }
                default: return .response(files.response(for: request.path))
                }
            }
        }

        var base: String { "http://\(server?.address.description ?? "")" }

        /// A one-time token exchanged, as the browser does on its first load: `Cookie: ...` for
        /// curl's `-H`.
        func session() throws -> String {
            let token = try #require(access.issueToken())
            let headers = scratch.path("headers-\(UUID().uuidString)")
            #expect(try curl(["-D", headers, base + "/?token=" + token]).status == 200)
            let line = try #require(try String(contentsOfFile: headers, encoding: .utf8).split(separator: "\r\n")
                .first { $0.hasPrefix("Set-Cookie: ") })
            return "Cookie: " + (line.dropFirst("Set-Cookie: ".count).split(separator: ";").first.map(String.init) ?? "")
        }

        /// curl with `arguments`, to its exit while the loop turns: the status code and the body.
        func curl(_ arguments: [String]) throws -> (status: Int, body: String) {
            let output = scratch.path("curl-\(UUID().uuidString)")
            let tool = try RunningBinary(program: "/usr/bin/curl", ["-s", "-o", output, "-w", "%{http_code}", "--path-as-is"] + arguments,
                                         directory: scratch.path, name: "curl")
            #expect(reactor.run(until: { !tool.process.isRunning }, timeout: .seconds(10), checkingEvery: .milliseconds(5)))
            return (Int(tool.stdout) ?? 0, (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
        }
    }

    /// The address's token is used once, for the session's cookie, and then refused; the cookie
    /// lets the page in; a wrong token or cookie does not.
    @Test func aOneTimeTokenBuysTheCookieOnceAndTheCookieIsChecked() throws {
        let rig = try Rig()
        let token = try #require(rig.access.issueToken())
        let headers = rig.scratch.path("headers")
        let first = try rig.curl(["-D", headers, rig.base + "/?token=" + token])
        #expect(first.status == 200 && first.body.contains("url=/"), "\(first)")
        let port = rig.server?.address.port ?? 0
        let cookieLine = try #require(try String(contentsOfFile: headers, encoding: .utf8).split(separator: "\r\n").first { $0.hasPrefix("Set-Cookie: ") })
        #expect(cookieLine.hasPrefix("Set-Cookie: daydream-session-\(port)=") && cookieLine.hasSuffix("; Path=/; HttpOnly; SameSite=Strict"))
        #expect(!cookieLine.contains(token), "the session is not the token")
        let cookie = "Cookie: " + (cookieLine.dropFirst("Set-Cookie: ".count).split(separator: ";").first.map(String.init) ?? "")
        #expect(try rig.curl([rig.base + "/?token=" + token]).status == 403, "a token used already")
        #expect(try rig.curl(["-H", cookie, rig.base + "/?token=" + token]).status == 403, "a token used already, with the cookie")
        #expect(try rig.curl(["-H", cookie, rig.base + "/app.js"]) == (200, "let a = 1;\n"))
        #expect(try rig.curl(["-H", "X-Daydream-Token: " + token, rig.base + "/app.js"]).status == 403, "the token is no header")
        #expect(try rig.curl(["-H", "Cookie: daydream-session-\(port)=" + token, rig.base + "/app.js"]).status == 403, "the token is no cookie")
        #expect(try rig.curl([rig.base + "/"]).status == 403, "nothing")
        let other = try #require(rig.access.issueToken())
        #expect(try rig.curl([rig.base + "/?token=" + String(other.reversed())]).status == 403, "a wrong token")
        #expect(try rig.curl(["--data", "", rig.base + "/?token=" + other]).status == 403, "a token is taken by GET only")
        #expect(try rig.curl([rig.base + "/?token=" + other]).status == 200, "then taken by GET")
    }

    /// A one-time token is refused once its time is up, and each is good for itself only.
    @Test func aOneTimeTokenExpires() throws {
        let rig = try Rig()
        let host = ["Host": rig.server?.address.description ?? ""]
        let start = MonotonicTime.now()
        let late = try #require(rig.access.issueToken(lifetime: .seconds(60), now: start))
        let onTime = try #require(rig.access.issueToken(lifetime: .seconds(60), now: start))
        func taken(_ token: String, at time: MonotonicTime) -> Bool {
            if case .answered(let response) = rig.access.decide(HTTPRequest(method: "GET", path: "/", query: ["token": token], headers: host), now: time) {
                return response.status == 200
            }
            return false
        }
        #expect(taken(onTime, at: start + .seconds(59)))
        #expect(!taken(late, at: start + .seconds(60)))
        #expect(!taken(late, at: start + .seconds(1)), "an expired token stays refused")
    }

    @Test func theHostAndTheOriginAreChecked() throws {
        let rig = try Rig()
        let cookie = try rig.session()
        let port = rig.server?.address.port ?? 0
        #expect(try rig.curl(["-H", cookie, "-H", "Host: attacker.example:\(port)", rig.base + "/"]).status == 403, "DNS rebinding")
        let rebound = try #require(rig.access.issueToken())
        #expect(try rig.curl(["-H", "Host: attacker.example:\(port)", rig.base + "/?token=" + rebound]).status == 403, "DNS rebinding, a token")
        #expect(try rig.curl(["-H", cookie, "-H", "Host: localhost:\(port)", rig.base + "/"]).status == 200)
        let post = ["-H", cookie, "--data", "value=two+words%21", rig.base + "/api/echo"]
        #expect(try rig.curl(post).status == 403, "a POST without Origin")
        #expect(try rig.curl(["-H", "Origin: http://evil.example"] + post).status == 403, "a cross-origin POST")
        #expect(try rig.curl(["-H", "Origin: http://127.0.0.1:\(port)"] + post) == (200, "\"two words!\""))
        let large = String(repeating: "x", count: 2000)
        #expect(try rig.curl(["-H", cookie, "-H", "Origin: http://127.0.0.1:\(port)", "--data", "value=" + large, rig.base + "/api/echo"]).status == 413)
        #expect(rig.received.filter { $0.path == "/api/echo" }.count == 1, "only the allowed POST reached the handler")
    }

    @Test func onlyThePagesOwnFilesAreServed() throws {
        let rig = try Rig()
        let cookie = try rig.session()
        for path in ["/../secret.html", "/out.html", "/notes.txt", "/.hidden.js", "/missing.js", "//etc/passwd", "/%2e%2e/secret.html"] {
            #expect(try rig.curl(["-H", cookie, rig.base + path]).status == 404, "\(path)")
        }
    }

    @Test func eventsReachEveryClientInOrderAndALeavingClientIsForgotten() throws {
        let rig = try Rig()
        let url = rig.base + "/api/events"
        let cookie = try rig.session()
        let first = try RunningBinary(program: "/usr/bin/curl", ["-s", "-N", "-H", cookie, url], directory: rig.scratch.path, name: "first")
        let second = try RunningBinary(program: "/usr/bin/curl", ["-s", "-N", "-H", cookie, url], directory: rig.scratch.path, name: "second")
        #expect(rig.reactor.run(until: { rig.streams.count == 2 }, timeout: .seconds(10), checkingEvery: .milliseconds(5)))
        for index in 1...50 { for stream in rig.streams { stream.send("line \(index)\nsecond line", event: "tick") } }
        let expected = "data: hello\n\n" + (1...50).map { "event: tick\ndata: line \($0)\ndata: second line\n\n" }.joined()
        // Comment lines (":", the keep-alive) may come between events; clients skip them.
        func events(_ text: String) -> String { text.replacingOccurrences(of: ":\n\n", with: "") }
        #expect(rig.reactor.run(until: { events(first.stdout) == expected && events(second.stdout) == expected },
                                timeout: .seconds(10), checkingEvery: .milliseconds(5)), "\(first.stdout.suffix(200))")
        first.signal(SIGKILL)
        #expect(rig.reactor.run(until: { rig.closed == 1 }, timeout: .seconds(10), checkingEvery: .milliseconds(5)))
        #expect(rig.streams.filter(\.isOpen).count == 1)
        rig.streams.forEach { $0.close() }
        #expect(rig.reactor.run(until: { !second.process.isRunning }, timeout: .seconds(10), checkingEvery: .milliseconds(5)), "a closed stream ends the response")
    }

    /// 70 connections opened and left silent (more than the server takes) do not lock a client
    /// out: its request is answered at once, the connections idle longest let go for it.
    @Test func heldConnectionsDoNotLockAClientOut() throws {
        let rig = try Rig()
        let cookie = try rig.session()
        let port = rig.server?.address.port ?? 0
        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        for _ in 0..<70 {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            #expect(connected == 0)
            held.append(descriptor)
        }
        #expect(rig.reactor.run(until: { (rig.server?.openConnections ?? 0) >= HTTPServer.idleLimit }, timeout: .seconds(10),
                                checkingEvery: .milliseconds(5)))
        let start = MonotonicTime.now()
        let answer = try rig.curl(["--max-time", "5", "-H", cookie, rig.base + "/app.js"])
        let took = MonotonicTime.now() - start
        #expect(answer == (200, "let a = 1;\n"), "\(answer)")
        #expect(took < .seconds(2), "answered after \(took)")
        #expect((rig.server?.openConnections ?? 0) <= HTTPServer.idleLimit + 1)
        // And once they all hang up, the server lets every one go.
        held.forEach { close($0) }
        held = []
        #expect(rig.reactor.run(until: { rig.server?.openConnections == 0 }, timeout: .seconds(10), checkingEvery: .milliseconds(5)))
    }
}
