import Bridge
import EventLoop
import Foundation
import Testing

/// The control socket's file: the server replaces a stale socket and removes its own socket
/// file at exit, and leaves anything else at its path alone.
@MainActor
@Suite struct ControlServerTests {
    /// A fresh directory for one test.
    private static func makeDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("daydream-control-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// `--socket` pointed at an existing file by mistake: the file was unlinked and replaced by
    /// the socket. Now it is an error and the file is kept.
    @Test func aFileThatIsNotASocketIsRefusedAndKept() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/notes.txt"
        try "keep me\n".write(toFile: path, atomically: false, encoding: .utf8)
        let reactor = try Reactor()
        #expect(throws: ControlSocketError.self) {
            _ = try ControlServer(path: path, reactor: reactor) { _ in .ok() }
        }
        #expect((try? String(contentsOfFile: path, encoding: .utf8)) == "keep me\n")
    }

    /// A socket file left by a daemon that is gone (nothing answers) is replaced.
    @Test func aStaleSocketIsReplaced() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/control"
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(stale >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        close(stale)  // the socket file stays, with nothing behind it
        try #require(bound == 0)
        #expect(!ControlClient.isAnswering(path))
        let reactor = try Reactor()
        let server = try ControlServer(path: path, reactor: reactor) { _ in .ok() }
        #expect(ControlClient.isAnswering(path))
        server.close()
        #expect(access(path, F_OK) != 0)
    }

    /// A server whose socket file was deleted while it ran, and a second server that made its
    /// own socket at the same path: the first one's exit removed the second one's socket, so
    /// `daydream-bridge profile` could no longer reach the running daemon.
    @Test func closingLeavesAnotherServersSocketInPlace() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/control"
        let reactor = try Reactor()
        let first = try ControlServer(path: path, reactor: reactor) { _ in .ok() }
        try #require(unlink(path) == 0)
        let second = try ControlServer(path: path, reactor: reactor) { _ in .ok() }
        first.close()
        #expect(ControlClient.isAnswering(path), "the first server's close removed the second server's socket")
        second.close()
        #expect(access(path, F_OK) != 0)
    }
}
