#if canImport(Glibc)
import Glibc
#endif

/// Reading a config file's bytes, with the system's reason when that fails.
public enum ConfigFile {
    /// A config file that could not be read.
    public struct ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The path given.
        public var path: String
        /// `errno` from the failing call.
        public var code: Int32

        /// `cannot read PATH: REASON`.
        public var description: String {
            "cannot read \(path): \(String(cString: strerror(code)))"
        }
    }

    /// The largest config accepted; anything bigger is surely not a config.
    public static let sizeLimit = 1 << 20

    /// True when `path` names an existing regular file (or a link to one).
    public static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// The whole file at `path` (`open`, `read`).
    public static func read(_ path: String) throws(ReadError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ReadError(path: path, code: errno) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw ReadError(path: path, code: errno) }
        if (status.st_mode & S_IFMT) == S_IFDIR { throw ReadError(path: path, code: EISDIR) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadError(path: path, code: errno)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
            if bytes.count > sizeLimit { throw ReadError(path: path, code: EFBIG) }
        }
    }
}
