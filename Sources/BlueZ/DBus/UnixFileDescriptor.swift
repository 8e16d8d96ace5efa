#if canImport(Glibc)
import Glibc
#endif

/// A file descriptor received in a D-Bus message: closed when this object goes
/// away unless `take()` hands it over first.
public final class UnixFileDescriptor {
    private var descriptor: Int32

    /// Takes ownership of `descriptor`.
    public init(owning descriptor: Int32) { self.descriptor = descriptor }

    /// The descriptor, or -1 once taken.
    public var rawValue: Int32 { descriptor }

    /// Hands the descriptor over to the caller, who must close it.
    public func take() -> Int32 {
        defer { descriptor = -1 }
        return descriptor
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }
}
