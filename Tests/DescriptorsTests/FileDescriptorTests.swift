import Descriptors
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The owning descriptor, on connected socket pairs: one end reads end-of-file exactly when the
/// other is closed, which tells whether an owner closed its descriptor whatever numbers other
/// tests running at the same time are given. The pairs are made close-on-exec in the same call,
/// but a child another test forks holds a copy of every descriptor until it has exec'd: so an
/// end-of-file is waited for (it comes once that child has exec'd), never read at once.
@Suite struct FileDescriptorTests {
    /// Two connected ends, both owned.
    struct Pair: ~Copyable {
        var readEnd: FileDescriptor
        var writeEnd: FileDescriptor
    }

    private static func pair() throws -> Pair {
        var ends: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        try #require(socketpair(AF_UNIX, type, 0, &ends) == 0)
        return Pair(readEnd: FileDescriptor(owning: ends[0]), writeEnd: FileDescriptor(owning: ends[1]))
    }

    /// What one read of a non-blocking read end finds now: "eof", "data", or "empty" (still open,
    /// nothing written).
    private static func state(of readEnd: borrowing FileDescriptor) -> String {
        state(ofRaw: readEnd.rawValue)
    }

    private static func state(ofRaw descriptor: Int32) -> String {
        var byte: UInt8 = 0
        let count = read(descriptor, &byte, 1)
        if count == 0 { return "eof" }
        if count > 0 { return "data" }
        return errno == EAGAIN ? "empty" : "error \(errno)"
    }

    /// What a read end has once something arrives on it, waiting until the deadline (ten seconds
    /// from now unless given): "eof" or "data", or "empty" if nothing came (the other end is open
    /// somewhere: it was leaked).
    private static func stateOnceReadable(
        _ descriptor: Int32, deadline: ContinuousClock.Instant = .now + .seconds(10)
    ) -> String {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while ContinuousClock.now < deadline {
            let ready = poll(&entry, 1, 100)
            if ready > 0 { return state(ofRaw: descriptor) }
            if ready < 0 && errno != EINTR { return "error \(errno)" }
        }
        return state(ofRaw: descriptor)
    }

    private static func stateOnceReadable(of readEnd: borrowing FileDescriptor) -> String {
        stateOnceReadable(readEnd.rawValue)
    }

    @Test func anOwnerThatGoesAwayClosesItsDescriptor() throws {
        let pair = try Self.pair()
        #expect(Self.state(of: pair.readEnd) == "empty")
        _ = consume pair.writeEnd
        #expect(Self.stateOnceReadable(of: pair.readEnd) == "eof")
    }

    /// A hundred owners made and dropped leave no descriptor behind: each pair's write end is
    /// closed once its owner is gone, which the read ends kept show.
    @Test func droppedOwnersLeaveNoDescriptorOpen() throws {
        var readEnds: [Int32] = []
        for _ in 0..<100 {
            let pair = try Self.pair()
            readEnds.append(pair.readEnd.release())
        }
        defer { for descriptor in readEnds { _ = close(descriptor) } }
        let deadline = ContinuousClock.now + .seconds(10)
        let open = readEnds.filter { Self.stateOnceReadable($0, deadline: deadline) != "eof" }
        #expect(open.isEmpty)
    }

    @Test func closeClosesAtOnceAndOnlyOnce() throws {
        let first = try Self.pair()
        try first.writeEnd.close()
        #expect(Self.stateOnceReadable(of: first.readEnd) == "eof")
        // Whatever numbers the next pair gets (perhaps the one just closed), the closed owner
        // does not close them when it would have gone away: it was consumed, no deinit is left.
        let second = try Self.pair()
        var byte: UInt8 = 1
        #expect(write(second.writeEnd.rawValue, &byte, 1) == 1)
        #expect(Self.stateOnceReadable(of: second.readEnd) == "data")
    }

    @Test func aFailedCloseIsReported() {
        // No process has a descriptor that high (RLIMIT_NOFILE stops well below).
        #expect(throws: SystemCallError("close", code: EBADF)) { try FileDescriptor(owning: Int32.max).close() }
    }

    @Test func aFailedCallIsAnError() {
        #expect(throws: SystemCallError("open", code: ENOENT)) {
            _ = try FileDescriptor(checking: open("/nonexistent/descriptor-test", O_RDONLY | O_CLOEXEC), from: "open")
        }
    }

    @Test func aDuplicateHasAnOwnerOfItsOwn() throws {
        let pair = try Self.pair()
        let copy = try pair.writeEnd.duplicate()
        #expect(copy.rawValue != pair.writeEnd.rawValue)
        try pair.writeEnd.close()
        #expect(Self.state(of: pair.readEnd) == "empty")
        _ = consume copy
        #expect(Self.stateOnceReadable(of: pair.readEnd) == "eof")
    }

    @Test func aFailedDuplicateIsReported() {
        #expect(throws: SystemCallError("fcntl(F_DUPFD_CLOEXEC)", code: EBADF)) {
            _ = try FileDescriptor(owning: Int32.max).duplicate()
        }
    }

    @Test func releaseHandsTheDescriptorOverOpen() throws {
        let pair = try Self.pair()
        let number = pair.writeEnd.release()
        #expect(Self.state(of: pair.readEnd) == "empty")
        #expect(close(number) == 0)
        #expect(Self.stateOnceReadable(of: pair.readEnd) == "eof")
    }
}
