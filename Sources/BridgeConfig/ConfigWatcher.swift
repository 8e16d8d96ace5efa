#if canImport(Glibc)
import Glibc
#endif

/// Watches one config file for changes with inotify, for the daemon's loop.
///
/// It watches the file's directory, not the file, so it follows editors that
/// write a new file and rename it over the old one, and a file deleted and
/// created again; changes to other files in the directory are ignored. When
/// the path is a symbolic link (a config kept with one's dotfiles), the
/// directory of the file it points to is watched too. The fd is non-blocking:
/// add `fileDescriptor` to the loop and call `readEvents()` when it is readable.
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

    /// One watched directory and the name in it that matters.
    private struct Watch {
        var directory: String
        var fileName: String
        var descriptor: Int32
    }

    /// The watched file.
    public let path: String
    /// The inotify fd to poll for reading.
    public let fileDescriptor: Int32
    private var watches: [Watch] = []
    private var buffer = [UInt8](repeating: 0, count: 4096)

    /// The events that mean the file has new contents or is gone: written and
    /// closed, renamed into place, renamed away, deleted; and the directory
    /// itself going away.
    private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF)
        | UInt32(IN_ONLYDIR)

    /// Starts watching `path`'s directory (`inotify_init1`, `inotify_add_watch`).
    public init(path: String) throws(WatchError) {
        self.path = path
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw WatchError(call: "inotify_init1", path: path, code: errno) }
        var targets = [Self.split(path)]
        if let resolved = Self.resolvedTarget(of: path) {
            let target = Self.split(resolved)
            if target != targets[0] { targets.append(target) }
        }
        var added: [Watch] = []
        for (directory, fileName) in targets {
            let descriptor = inotify_add_watch(fd, directory, Self.mask)
            guard descriptor >= 0 else {
                let code = errno
                close(fd)
                throw WatchError(call: "inotify_add_watch", path: directory, code: code)
            }
            added.append(Watch(directory: directory, fileName: fileName, descriptor: descriptor))
        }
        // Set last: a throw above leaves the object not fully initialised, so `deinit` (which
        // closes `fileDescriptor`) does not run and the fd is closed once, here, not twice.
        fileDescriptor = fd
        watches = added
    }

    deinit {
        close(fileDescriptor)
    }

    /// Reads every pending event; true when one of them concerns the config file
    /// (or a watched directory went away), so the config should be read again.
    ///
    /// A directory that went away is watched again if it exists by now. While
    /// it does not, nothing can wake the loop for it: the daemon calls this
    /// again on SIGHUP (see `isWatching`).
    public func readEvents() -> Bool {
        var changed = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                let headerSize = MemoryLayout<inotify_event>.size
                while offset + headerSize <= count {
                    let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let nameStart = offset + headerSize
                    let nameEnd = min(nameStart + Int(event.len), count)
                    offset = nameStart + Int(event.len)
                    // The kernel's queue overflowed and events were dropped: one may have been ours.
                    if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                        changed = true
                        continue
                    }
                    // A link and its target in one directory share one watch descriptor.
                    guard watches.contains(where: { $0.descriptor == event.wd }) else { continue }
                    if event.mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
                        changed = true
                        if event.mask & UInt32(IN_IGNORED) != 0 {
                            for index in watches.indices where watches[index].descriptor == event.wd {
                                watches[index].descriptor = -1
                            }
                        }
                        continue
                    }
                    let name = bytes[nameStart ..< nameEnd].prefix { $0 != 0 }
                    if watches.contains(where: { $0.descriptor == event.wd && name.elementsEqual($0.fileName.utf8) }) {
                        changed = true
                    }
                }
            }
        }
        rewatch()
        return changed
    }

    /// True while every directory is watched; false after one was removed and
    /// not made again yet.
    public var isWatching: Bool {
        watches.allSatisfy { $0.descriptor >= 0 }
    }

    /// Adds the watch again for every directory whose watch the kernel dropped
    /// (it was removed or renamed) and that exists again.
    private func rewatch() {
        for index in watches.indices where watches[index].descriptor < 0 {
            watches[index].descriptor = inotify_add_watch(fileDescriptor, watches[index].directory, Self.mask)
        }
    }

    private static func split(_ path: String) -> (directory: String, fileName: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }

    /// The file a symbolic link at `path` finally points to (`realpath`), or nil.
    private static func resolvedTarget(of path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK else { return nil }
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
