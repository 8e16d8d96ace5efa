#if canImport(Glibc)
import Glibc
#endif

/// Watches one config file for changes with inotify, for the daemon's loop.
///
/// It watches the file's directory, not the file, so it follows editors that
/// write a new file and rename it over the old one, and a file deleted and
/// created again. Changes to other files in the directory are ignored. The fd
/// is non-blocking: add `fileDescriptor` to the loop and call `readEvents()`
/// when it is readable.
public final class ConfigWatcher {
    /// Setting up the watch failed.
    public struct WatchError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The call that failed.
        public var call: String
        /// The path involved.
        public var path: String
        /// `errno`.
        public var code: Int32

        /// `CALL PATH: REASON`.
        public var description: String {
            "\(call) \(path): \(String(cString: strerror(code)))"
        }
    }

    /// The watched file.
    public let path: String
    /// The inotify fd to poll for reading.
    public let fileDescriptor: Int32
    private let directory: String
    private let fileName: String
    private var buffer = [UInt8](repeating: 0, count: 4096)

    /// The events that mean the file has new contents or is gone:
    /// written and closed, renamed into place, renamed away, deleted;
    /// and the directory itself going away.
    private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF)

    /// Starts watching `path`'s directory (`inotify_init1`, `inotify_add_watch`).
    public init(path: String) throws(WatchError) {
        let (directory, fileName) = Self.split(path)
        self.path = path
        self.directory = directory
        self.fileName = fileName
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw WatchError(call: "inotify_init1", path: path, code: errno) }
        guard inotify_add_watch(fd, directory, Self.mask | UInt32(IN_ONLYDIR)) >= 0 else {
            let code = errno
            close(fd)
            throw WatchError(call: "inotify_add_watch", path: directory, code: code)
        }
        fileDescriptor = fd
    }

    deinit {
        close(fileDescriptor)
    }

    /// Reads every pending event; true when one of them concerns the config file
    /// (or its directory went away), so the config should be read again.
    public func readEvents() -> Bool {
        var changed = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return changed }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                let headerSize = MemoryLayout<inotify_event>.size
                while offset + headerSize <= count {
                    let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let nameLength = Int(event.len)
                    let nameStart = offset + headerSize
                    offset = nameStart + nameLength
                    if event.mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
                        changed = true
                        continue
                    }
                    guard nameLength > 0, nameStart + nameLength <= count else { continue }
                    let nameBytes = bytes[nameStart ..< nameStart + nameLength].prefix { $0 != 0 }
                    if nameBytes.elementsEqual(fileName.utf8) { changed = true }
                }
            }
        }
    }

    private static func split(_ path: String) -> (directory: String, fileName: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }
}
