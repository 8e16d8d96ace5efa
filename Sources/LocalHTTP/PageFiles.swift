#if canImport(Glibc)
import Glibc
#endif
import Descriptors

/// The page's own files, served from one directory: only names of an allowed type, never a
/// path with `..`, a hidden name or a link that leads out of the directory.
public struct PageFiles: Sendable {
    /// The directory, resolved.
    public let directory: String
    /// The types served, by extension.
    public static let contentTypes = [
        "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "svg": "image/svg+xml", "png": "image/png",
    ]
    /// The largest file served.
    static let maximumSize = 4 * 1024 * 1024

    /// The files in `directory`; nil when it does not exist.
    public init?(directory: String) {
        guard let resolved = realpath(directory, nil) else { return nil }
        self.directory = String(cString: resolved)
        free(resolved)
    }

    /// The response for `path` (`/` is `index.html`): the file, or 404.
    public func response(for path: String) -> HTTPResponse {
        let name = path == "/" ? "index.html" : String(path.drop(while: { $0 == "/" }))
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") }),
              let type = name.split(separator: ".").last.flatMap({ Self.contentTypes[String($0)] }),
              let resolved = realpath(directory + "/" + name, nil) else {
            return .text(404, "not found")
        }
        let file = String(cString: resolved)
        free(resolved)
        guard file.hasPrefix(directory + "/"), let bytes = Self.read(file) else { return .text(404, "not found") }
        return HTTPResponse(status: 200, headers: [("Content-Type", type)], body: bytes)
    }

    private static func read(_ path: String) -> [UInt8]? {
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { return nil }
        let file = FileDescriptor(owning: opened)
        let descriptor = file.rawValue
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size <= maximumSize else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                retryingOnInterrupt { Glibc.read(descriptor, buffer.baseAddress?.advanced(by: filled), buffer.count - filled) }
            }
            guard count > 0 else { return nil }
            filled += count
        }
        return bytes
    }
}
