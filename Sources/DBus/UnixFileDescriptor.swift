import Descriptors

/// A file descriptor received in a D-Bus message: closed when this object goes
/// away unless `take()` hands it over first. A class, so a `DBusValue` holding
/// it stays copyable while the descriptor keeps one owner.
public final class UnixFileDescriptor {
    private var descriptor: FileDescriptor?

    /// Takes ownership of `descriptor`.
    public init(owning descriptor: consuming FileDescriptor) { self.descriptor = consume descriptor }

    /// The descriptor, or -1 once taken.
    public var rawValue: Int32 { descriptor?.rawValue ?? -1 }

    /// Hands the descriptor over to the caller; nil once taken.
    public func take() -> FileDescriptor? {
        descriptor.take()
    }
}
