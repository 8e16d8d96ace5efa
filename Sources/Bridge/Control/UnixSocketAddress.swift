#if canImport(Glibc)
import Glibc
#endif

/// A filesystem `sockaddr_un`, for `bind(2)` and `connect(2)`.
struct UnixSocketAddress {
    private var storage = sockaddr_un()

    /// Nil when the path does not fit in `sun_path` (107 bytes and a NUL).
    init?(path: String) {
        storage.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: storage.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else { return nil }
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
            raw[bytes.count] = 0
        }
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        var copy = storage
        return withUnsafePointer(to: &copy) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}
