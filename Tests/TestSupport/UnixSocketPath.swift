import Glibc

/// `bind(2)` and `connect(2)` to a filesystem socket's path, for the sockets tests open themselves.
public enum UnixSocketPath {
    /// Calls `body` with `path` as a `sockaddr_un` (seen as a `sockaddr`) and that structure's size.
    public static func withAddress<Result>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// Binds `descriptor` to `path`; what `bind` returned.
    public static func bind(_ descriptor: Int32, to path: String) -> Int32 {
        withAddress(path) { Glibc.bind(descriptor, $0, $1) }
    }

    /// Connects `descriptor` to `path`; what `connect` returned.
    public static func connect(_ descriptor: Int32, to path: String) -> Int32 {
        withAddress(path) { Glibc.connect(descriptor, $0, $1) }
    }
}
