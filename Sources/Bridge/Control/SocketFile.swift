#if canImport(Glibc)
import Glibc
#endif

/// A socket file in the filesystem, by device and inode: how the control socket tells its own
/// file from whatever else may be at its path (a file named by mistake, another daemon's socket).
struct SocketFile: Equatable {
    private let device: UInt64
    private let inode: UInt64

    /// The socket file at `path` (`lstat`); nil when nothing is there or it is not a socket.
    init?(at path: String) {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }

    /// Whether anything at all (a file, a directory, a link) is at `path`.
    static func somethingExists(at path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }
}
