import EventLoop
import Foundation
import LocalHTTP
import TestSupport
import Testing

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

        init() throws {
            reactor = try Reactor()
            scratch = try TemporaryDirectory(prefix: "daydream-http")
            try FileManager.default.createDirectory(atPath: scratch.path("web"), withIntermediateDirectories: true)
            try scratch.write("web/index.html", "<h1>page</h1>\n")
            try scratch.write("web/app.js", "let a = 1;\n")
            try scratch.write("web/notes.txt", "not served\n")
            try scratch.write("secret.html", "outside\n")
            try FileManager.default.createSymbolicLink(atPath: scratch.path("web/out.html"), withDestinationPath: "../secret.html")
            let files = try #require(PageFiles(directory: scratch.path("web")))
            let token = try #require(PageAccess.randomToken())
            let server = try HTTPServer(listening: ListenAddress(octets: [127, 0, 0, 1], port: 0), reactor: reactor, maximumBody: 1024) { _ in
                .response(.text(500, "not ready"))
            }
            access = PageAccess(address: server.address, token: token)
            server.stop()
            self.server = try HTTPServer(listening: server.address, reactor: reactor, maximumBody: 1024,
                                         keepAlive: .milliseconds(50)) { [unowned self] request in
                if let refusal = self.access.refusal(of: request) { return .response(refusal) }
                self.received.append(request)
                switch request.path {
                case "/api/echo": return .response(.json(200, JSONText.string(request.formFields["value"] ?? "")))
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

        /// curl with `arguments`, to its exit while the loop turns: the status code and the body.
        func curl(_ arguments: [String]) throws -> (status: Int, body: String) {
            let output = scratch.path("curl-\(UUID().uuidString)")
            let tool = try RunningBinary(program: "/usr/bin/curl", ["-s", "-o", output, "-w", "%{http_code}", "--path-as-is"] + arguments,
                                         directory: scratch.path, name: "curl")
            #expect(reactor.run(until: { !tool.process.isRunning }, timeout: .seconds(10), checkingEvery: .milliseconds(5)))
            return (Int(tool.stdout) ?? 0, (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
        }
    }

    @Test func theTokenTheHostAndTheOriginAreChecked() throws {
        let rig = try Rig()
        let token = rig.access.token
        #expect(try rig.curl([rig.base + "/?token=" + token]) == (200, "<h1>page</h1>\n"))
        #expect(try rig.curl([rig.base + "/"]).status == 403, "no token")
        #expect(try rig.curl([rig.base + "/?token=" + String(token.reversed())]).status == 403, "a wrong token")
        #expect(try rig.curl(["-H", "X-Daydream-Token: " + token, rig.base + "/app.js"]) == (200, "let a = 1;\n"))
        let port = rig.server?.address.port ?? 0
        #expect(try rig.curl(["-H", "Host: attacker.example:\(port)", rig.base + "/?token=" + token]).status == 403, "DNS rebinding")
        #expect(try rig.curl(["-H", "Host: localhost:\(port)", rig.base + "/?token=" + token]).status == 200)
        let post = ["--data", "value=two+words%21", rig.base + "/api/echo?token=" + token]
        #expect(try rig.curl(post).status == 403, "a POST without Origin")
        #expect(try rig.curl(["-H", "Origin: http://evil.example"] + post).status == 403, "a cross-origin POST")
        #expect(try rig.curl(["-H", "Origin: http://127.0.0.1:\(port)"] + post) == (200, "\"two words!\""))
        let large = String(repeating: "x", count: 2000)
        #expect(try rig.curl(["-H", "Origin: http://127.0.0.1:\(port)", "--data", "value=" + large, rig.base + "/api/echo?token=" + token]).status == 413)
        #expect(rig.received.filter { $0.path == "/api/echo" }.count == 1, "only the allowed POST reached the handler")
    }

    @Test func onlyThePagesOwnFilesAreServed() throws {
        let rig = try Rig()
        let token = "?token=" + rig.access.token
        for path in ["/../secret.html", "/out.html", "/notes.txt", "/.hidden.js", "/missing.js", "//etc/passwd", "/%2e%2e/secret.html"] {
            #expect(try rig.curl([rig.base + path + token]).status == 404, "\(path)")
        }
    }

    @Test func eventsReachEveryClientInOrderAndALeavingClientIsForgotten() throws {
        let rig = try Rig()
        let url = rig.base + "/api/events?token=" + rig.access.token
        let first = try RunningBinary(program: "/usr/bin/curl", ["-s", "-N", url], directory: rig.scratch.path, name: "first")
        let second = try RunningBinary(program: "/usr/bin/curl", ["-s", "-N", url], directory: rig.scratch.path, name: "second")
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
}
