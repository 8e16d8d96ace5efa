import Bridge
import Descriptors
import EventLoop
import Foundation
import Testing

/// The control request that waits on the loop: the reply, no daemon, and a daemon that does not answer.
@MainActor
@Suite struct ControlQueryTests {
    private static func makeDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("daydream-query-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Server and client on one loop: the answer can only come if the query never blocks it.
    @Test func theReplyArrivesOnTheSameLoop() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reactor = try Reactor()
        let server = try ControlServer(path: directory + "/control", reactor: reactor) { request in
            request == .dsu ? .ok(["DSU off"]) : .error("not dsu")
        }
        defer { server.close() }
        var result: Result<ControlReply, ControlClientError>?
        let query = ControlQuery(.dsu, paths: [directory + "/none", directory + "/control"], reactor: reactor, timeout: .seconds(2)) {
            result = $0
        }
        #expect(query.isPending)
        #expect(reactor.run(until: { result != nil }, timeout: .seconds(5)))
        #expect(try result?.get() == .ok(["DSU off"]))
        #expect(!query.isPending)
    }

    @Test func noDaemonIsSaidOnTheLoop() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reactor = try Reactor()
        var result: Result<ControlReply, ControlClientError>?
        let query = ControlQuery(.dsu, paths: [directory + "/control"], reactor: reactor, timeout: .seconds(2)) { result = $0 }
        defer { withExtendedLifetime(query) {} }
        #expect(result == nil, "the completion runs on the loop, not inside the call")
        #expect(reactor.run(until: { result != nil }, timeout: .seconds(5)))
        #expect(result == .failure(.noDaemon(paths: [directory + "/control"])))
    }

    /// A socket that accepts (the kernel's backlog does) but never answers: the query times out.
    @Test func aSilentDaemonTimesOut() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/control"
        let opened = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(opened >= 0)
        let listener = FileDescriptor(owning: opened)
        defer { withExtendedLifetime(listener) {} }  // listening until the query is over
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener.rawValue, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0 && listen(listener.rawValue, 4) == 0)
        let reactor = try Reactor()
        var result: Result<ControlReply, ControlClientError>?
        let query = ControlQuery(.dsu, paths: [path], reactor: reactor, timeout: .milliseconds(100)) { result = $0 }
        defer { withExtendedLifetime(query) {} }
        #expect(reactor.run(until: { result != nil }, timeout: .seconds(5)))
        #expect(result == .failure(.timedOut(path: path, after: .milliseconds(100))))
        if case .failure(let error) = result {
            #expect(error.description == "the daemon did not answer on \(path) within 0.1s", "says how long it waited")
        }
    }

    /// A query let go of is cancelled: its completion never runs.
    @Test func aQueryLetGoOfNeverCompletes() throws {
        let reactor = try Reactor()
        var completed = false
        _ = ControlQuery(.dsu, paths: ["/nonexistent/control"], reactor: reactor, timeout: .milliseconds(10)) { _ in completed = true }
        #expect(!reactor.run(until: { completed }, timeout: .milliseconds(100)))
    }
}
