import Descriptors
#if canImport(Glibc)
import Glibc
#endif

/// Reading a config file's bytes, with the system's reason when that fails.
public enum ConfigFile {
    /// A config file that could not be read.
    public struct ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The path given.
        public var path: String
        /// `errno` from the failing call (`EINVAL` when `fileType` is set).
        public var code: Int32
        /// What the path is when it is not a regular file nor a directory ("a FIFO", "a socket").
        public var fileType: String?

        /// `cannot read PATH: REASON`.
        public var description: String {
            if let fileType { return "cannot read \(path): it is \(fileType), not a regular file" }
            return "cannot read \(path): \(String(cString: strerror(code)))"
        }
    }

    /// The largest config accepted; anything bigger is surely not a config.
    public static let sizeLimit = 1 << 20

    /// True when `path` names an existing regular file (or a link to one).
    public static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// The whole file at `path` (`open`, `read`); only a regular file (or a link to one) is read.
    /// It is opened without blocking, so a FIFO or a device at `path` is refused at once instead
    /// of holding the caller (the daemon's loop) until something writes to it.
    public static func read(_ path: String) throws(ReadError) -> [UInt8] {
        let opened = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard opened >= 0 else { throw ReadError(path: path, code: errno) }
        let file = FileDescriptor(owning: opened)
        var status = stat()
        guard fstat(file.rawValue, &status) == 0 else { throw ReadError(path: path, code: errno) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw ReadError(path: path, code: EISDIR)
        case S_IFIFO: throw ReadError(path: path, code: EINVAL, fileType: "a FIFO")
        case S_IFSOCK: throw ReadError(path: path, code: EINVAL, fileType: "a socket")
        case S_IFCHR: throw ReadError(path: path, code: EINVAL, fileType: "a character device")
        case S_IFBLK: throw ReadError(path: path, code: EINVAL, fileType: "a block device")
        default: throw ReadError(path: path, code: EINVAL, fileType: "of an unknown type")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in retryingOnInterrupt { Glibc.read(file.rawValue, buffer.baseAddress, buffer.count) } }
            if count < 0 {
                throw ReadError(path: path, code: errno)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
            if bytes.count > sizeLimit { throw ReadError(path: path, code: EFBIG) }
        }
    }
}
