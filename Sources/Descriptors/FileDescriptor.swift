#if canImport(Glibc)
import Glibc
#endif

/// An open file descriptor and the duty to close it.
///
/// The value closes its descriptor when it goes away, unless `close()` or `release()` ended
/// its ownership first. It is move-only: a descriptor has one owner, whose end is its one
/// close, so a close twice (or a use after close) does not compile. It is the size of the
/// number it holds; reading `rawValue` costs what reading an `Int32` does.
public struct FileDescriptor: ~Copyable {
    /// The descriptor, for system calls; open for as long as this value lives.
    public let rawValue: Int32

    /// Takes ownership of `rawValue`, an open descriptor.
    public init(owning rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// Takes ownership of what `call` returned: `result` when it is a descriptor, the call's
    /// `errno` as an error when it is negative (so `result` must be the call itself, evaluated
    /// just before, with nothing between that could change `errno`).
    public init(checking result: Int32, from call: String) throws(SystemCallError) {
        guard result >= 0 else { throw SystemCallError(call) }
        self.init(owning: result)
    }

    /// Closes the descriptor now (`close(2)`) and reports a failure. Linux releases the number
    /// even when `close` fails (`EIO` from a file system, `EINTR`), so it is never retried.
    public consuming func close() throws(SystemCallError) {
        let descriptor = rawValue
        discard self
        guard Glibc.close(descriptor) == 0 else { throw SystemCallError("close") }
    }

    /// Ends ownership without closing: the caller gets the number and the duty to close it.
    public consuming func release() -> Int32 {
        let descriptor = rawValue
        discard self
        return descriptor
    }

    /// A new descriptor for the same open file (`F_DUPFD_CLOEXEC`), with an owner of its own.
    public borrowing func duplicate() throws(SystemCallError) -> FileDescriptor {
        try FileDescriptor(checking: fcntl(rawValue, F_DUPFD_CLOEXEC, 0), from: "fcntl(F_DUPFD_CLOEXEC)")
    }

    /// Closes the descriptor. A failure here has no one to go to; an owner that must know
    /// (a file written) calls `close()` instead.
    deinit {
        _ = Glibc.close(rawValue)
    }
}
