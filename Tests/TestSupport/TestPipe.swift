import Descriptors
import Glibc

/// A pipe for one test; both ends are closed when it goes (the write end earlier by
/// `closeWriteEnd()`, which the reader sees as the hang-up).
public final class TestPipe {
    private let reader: FileDescriptor
    /// Owned until `closeWriteEnd()`.
    private var writer: FileDescriptor?

    /// The end to read from.
    public var readEnd: Int32 { reader.rawValue }
    /// The end to write to; -1 once closed.
    public var writeEnd: Int32 { writer?.rawValue ?? -1 }

    /// Makes a pipe. Both ends are close-on-exec unless `inheritable` (a child process another
    /// test starts would otherwise keep them open); `nonBlocking` sets O_NONBLOCK on both.
    public init(nonBlocking: Bool = false, inheritable: Bool = false) throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw TestFailure("pipe: errno \(errno)") }
        for end in ends {
            if !inheritable { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            if nonBlocking { _ = fcntl(end, F_SETFL, O_NONBLOCK) }
        }
        reader = FileDescriptor(owning: ends[0])
        writer = FileDescriptor(owning: ends[1])
    }

    /// Closes the write end now.
    public func closeWriteEnd() {
        // A pipe's close fails only for a bad descriptor, which an owned one is not.
        try? writer.take()?.close()
    }
}
