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

    /// An error for `path`.
    public init(path: String, code: Int32, action: String = "read") {
        self.path = path
        self.code = code
        self.action = action
    }

    /// `cannot read PATH: REASON`.
    public var description: String {
        let reason = strerror(code).map { String(cString: $0) } ?? "errno \(code)"
        return "cannot \(action) \(path): \(reason)"
    }
}

/// Reading and writing whole text files with `open(2)`, `read(2)` and `write(2)`.
public enum TextFile {
    /// The file's bytes as UTF-8 text (invalid sequences become U+FFFD).
    public static func read(_ path: String) throws(TextFileError) -> String {
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { throw TextFileError(path: path, code: errno) }
        let file = FileDescriptor(owning: opened)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(file.rawValue, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw TextFileError(path: path, code: errno)
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
