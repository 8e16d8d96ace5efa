import Bridge
import EventLoop
import Foundation
import TestSupport
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

    /// Listening in `directory` is refused with a message holding `reason`, and no socket is made.
    private func expectRefused(in directory: String, saying reason: String) throws {
        let reactor = try Reactor()
        do {
            _ = try ControlServer(path: directory + "/control", reactor: reactor) { _ in .ok() }
            Issue.record("a control socket was made in \(directory)")
        } catch {
            #expect(error.description.contains(reason), "\(error)")
            #expect(error.description.contains("choose another --socket path"), "\(error)")
        }
        #expect(!SocketFileProbe.exists(directory + "/control"))
    }

    /// A directory every user may write to (as /tmp is): another user could put their own socket
    /// at the path, so the daemon refuses it, sticky bit or not. Group write is refused too.
    @Test func aDirectoryOthersCanWriteIsRefused() throws {
        for mode: mode_t in [0o777, 0o1777, 0o770] {
            let directory = try Self.makeDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try #require(chmod(directory, mode) == 0)
            try expectRefused(in: directory, saying: "can be written by other users (mode \(String(mode, radix: 8)))")
        }
    }

    /// A directory that belongs to another user (made there before the daemon started).
    @Test(.requires(getuid() == 0, "needs root to give a directory to another user"))
    func aDirectoryOfAnotherUserIsRefused() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try #require(chown(directory, 65534, 65534) == 0 && chmod(directory, 0o700) == 0)
        try expectRefused(in: directory, saying: "belongs to uid 65534, not to this daemon's user (uid 0)")
    }

    /// A link where the directory should be: whoever made it chooses where the socket goes.
    @Test func aLinkInPlaceOfTheDirectoryIsRefused() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/real", withIntermediateDirectories: false)
        try #require(symlink(directory + "/real", directory + "/link") == 0)
        try expectRefused(in: directory + "/link", saying: "is not a directory of its own")
        #expect(!SocketFileProbe.exists(directory + "/real/control"))
    }

    /// The daemon's own directory, made 0700 when it is missing, is accepted.
    @Test func aMissingDirectoryIsMadeForThisUserAlone() throws {
        let parent = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let reactor = try Reactor()
        let server = try ControlServer(path: parent + "/daydream-bridge/control", reactor: reactor) { _ in .ok() }
        var status = stat()
        try #require(stat(parent + "/daydream-bridge", &status) == 0)
        #expect(status.st_mode & 0o777 == 0o700 && status.st_uid == geteuid())
        server.close()
    }
}

/// Whether anything is at a path (`lstat`).
private enum SocketFileProbe {
    static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }
}

/// The `controllers` request's line: every field read back, and what a device advertises kept
/// on its line.
@Suite struct ControllerLineTests {
    @Test func aLineReadsBackAsItWasWritten() {
        let line = ControllerLine(address: "C0:DD:EE:00:00:01", isConnected: true, batteryPercent: 57, firmware: "1.3.5",
                                  profile: "gamepad", name: "Daydream controller")
        #expect(line.text == "C0:DD:EE:00:00:01\tconnected\t57\t1.3.5\tgamepad\tDaydream controller")
        #expect(ControllerLine(text: line.text) == line)
        let unknown = ControllerLine(address: "C0:DD:EE:00:00:02", isConnected: false, batteryPercent: nil, firmware: nil,
                                     profile: "pad", name: nil)
        #expect(ControllerLine(text: unknown.text) == unknown)
        #expect(ControlRequest.parse("controllers") == .success(.controllers))
        #expect(ControlRequest.controllers.line == "controllers")
    }

    @Test func anAdvertisedNameCannotBreakTheLine() {
        let line = ControllerLine(address: "C0:DD:EE:00:00:01", isConnected: true, batteryPercent: nil, firmware: "1\t2",
                                  profile: "pad", name: "evil\tname\nC0:DD:EE:00:00:09\tconnected")
        #expect(!line.text.contains("\n") && line.text.split(separator: "\t").count == 6)
        #expect(ControllerLine(text: line.text)?.name == "evil name C0:DD:EE:00:00:09 connected")
        #expect(ControllerLine(text: "C0:DD:EE:00:00:01\tmaybe\t-\t-\tpad\t-") == nil)
        #expect(ControllerLine(text: "C0:DD:EE:00:00:01\tconnected\tfull\t-\tpad\t-") == nil)
    }
}
