import EventLoop
import Foundation
@testable import LocalHTTP
import TestSupport
import Testing

/// Stopping the page's server while a page holds its event stream open, as `ui` does on Ctrl-C
/// or SIGTERM with the page open: the stream, waiting for its next event, has its connection
/// suspended, and libmicrohttpd aborts the process when stopped with one suspended.
@Suite("local HTTP server stopping", .serialized, .requires(FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "needs curl"))
@MainActor
struct StopWithStreamTests {
    @Test func stoppingWithAWaitingEventStreamClosesItWithoutAborting() throws {
        let reactor = try Reactor()
        let scratch = try TemporaryDirectory(prefix: "daydream-http-stop")
        var streams: [EventStream] = []
        // No keep-alive within the test: the stream stays suspended until the server stops.
        let server = try HTTPServer(listening: ListenAddress(octets: [127, 0, 0, 1], port: 0), reactor: reactor,
                                    keepAlive: .seconds(600)) { _ in
            .eventStream { stream in
                streams.append(stream)
                stream.send("hello")
            }
        }
        let client = try RunningBinary(program: "/usr/bin/curl", ["-s", "-N", "http://\(server.address)/api/events"],
                                       directory: scratch.path, name: "curl")
        #expect(reactor.run(until: { client.stdout.contains("data: hello") && streams.first?.suspended == true },
                            timeout: .seconds(10), checkingEvery: .milliseconds(5)), "the stream never waited: \(client.stdout)")
        server.stop()
        #expect(streams.first?.isOpen == false, "the stopped server's stream is still open")
        #expect(reactor.run(until: { !client.process.isRunning }, timeout: .seconds(10), checkingEvery: .milliseconds(5)),
                "the client's connection stayed open")
    }
}
