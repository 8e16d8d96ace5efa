import Descriptors
#if canImport(Glibc)
import Glibc
#endif

/// A text file that could not be read: the path and the system's reason.
public struct TextFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path given.
    public var path: String
    /// `errno` from the call that failed.
    public var code: Int32
    /// What was being done: `read` or `write`.
    public var action: String = "read"
    /// Said instead of `code`'s text when the system's words would mislead: the file is a FIFO,
    /// a device, or too big.
    public var detail: String?

    /// An error for `path`.
    public init(path: String, code: Int32, action: String = "read", detail: String? = nil) {
        self.path = path
        self.code = code
        self.action = action
        self.detail = detail
    }

    /// `cannot read PATH: REASON`.
    public var description: String {
        let reason = detail ?? strerror(code).map { String(cString: $0) } ?? "errno \(code)"
        return "cannot \(action) \(path): \(reason)"
    }
}

/// Reading and writing whole text files with `open(2)`, `read(2)` and `write(2)`.
public enum TextFile {
    /// The most `read` takes unless told otherwise: 1 MiB.
    public static let defaultSizeLimit = 1 << 20

    /// The file's bytes as UTF-8 text (invalid sequences become U+FFFD). Only a regular file (or
    /// a link to one) of at most `sizeLimit` bytes is read: a FIFO or a device is refused at once
    /// rather than waited on or read without end.
    public static func read(_ path: String, sizeLimit: Int = defaultSizeLimit) throws(TextFileError) -> String {
        let file = try openRegular(path)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in retryingOnInterrupt { Glibc.read(file.rawValue, buffer.baseAddress, buffer.count) } }
            if count < 0 {
                throw TextFileError(path: path, code: errno)
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > sizeLimit {
                throw TextFileError(path: path, code: EFBIG, detail: "it is larger than \(sizeLimit) bytes")
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `path` opened for reading when it is a regular file (or a link to one). It is opened without
    /// blocking, so a FIFO with no writer cannot hold the caller in `open`.
    public static func openRegular(_ path: String) throws(TextFileError) -> FileDescriptor {
        let opened = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard opened >= 0 else { throw TextFileError(path: path, code: errno) }
        let file = FileDescriptor(owning: opened)
        var status = stat()
        guard fstat(file.rawValue, &status) == 0 else { throw TextFileError(path: path, code: errno) }
        let kind: String
        switch status.st_mode & S_IFMT {
        case S_IFREG: return file
        case S_IFDIR: throw TextFileError(path: path, code: EISDIR)
        case S_IFIFO: kind = "a FIFO"
        case S_IFSOCK: kind = "a socket"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        default: kind = "of an unknown type"
        }
        throw TextFileError(path: path, code: EINVAL, detail: "it is \(kind), not a regular file")
    }
}
