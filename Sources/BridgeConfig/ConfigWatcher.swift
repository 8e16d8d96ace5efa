import Descriptors
#if canImport(Glibc)
import Glibc
#endif

/// Watches one config file for changes with inotify, for the daemon's loop.
///
/// It watches the file's directory, not the file, so it follows editors that
/// write a new file and rename it over the old one, and a file deleted and
/// created again; changes to other files in the directory are ignored. When
/// the path is a symbolic link (a config kept with one's dotfiles), the
/// directory of the file it points to is watched too, and a link pointed at
/// another file is followed there. A directory that goes away is waited for
/// from its nearest existing parent and watched again once it is back. The fd
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

    /// One watched directory and the name in it that matters.
    private struct Watch: Equatable {
        var directory: String
        var fileName: String
        /// The inotify watch, or -1 while the directory is missing.
        var descriptor: Int32
    }

    /// The watched file.
    public let path: String
    /// The inotify fd to poll for reading.
    public var fileDescriptor: Int32 { inotify.rawValue }
    private let inotify: FileDescriptor
    /// The link's directory first, then the directory of the file it points to (when it is a link elsewhere).
    private var watches: [Watch] = []
    /// Watches on the nearest existing parents of missing directories, waiting for them to come back.
    private var parentWatches: Set<Int32> = []
    private var buffer = [UInt8](repeating: 0, count: 4096)

    /// The events that mean the file has new contents or is gone: written and
    /// closed, renamed into place, renamed away, deleted, a link made in its
    /// place; and the directory itself going away.
    private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)
        | UInt32(IN_DELETE_SELF | IN_MOVE_SELF) | UInt32(IN_ONLYDIR)
    /// What a parent of a missing directory is watched for: a directory made or moved in, or the
    /// parent itself going away. Added to whatever else watches that directory.
    private static let parentMask = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF)
        | UInt32(IN_ONLYDIR) | UInt32(IN_MASK_ADD)

    /// Starts watching `path`'s directory (`inotify_init1`, `inotify_add_watch`).
    public init(path: String) throws(WatchError) {
        self.path = path
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw WatchError(call: "inotify_init1", path: path, code: errno) }
        // A throw below closes it: the owner goes with the half-made watcher.
        inotify = FileDescriptor(owning: fd)
        for (directory, fileName) in Self.targets(of: path) {
            let descriptor = inotify_add_watch(fd, directory, Self.mask)
            guard descriptor >= 0 else { throw WatchError(call: "inotify_add_watch", path: directory, code: errno) }
            watches.append(Watch(directory: directory, fileName: fileName, descriptor: descriptor))
        }
    }

    /// Reads every pending event; true when one of them concerns the config file
    /// (or a watched directory went away, or came back with the file in it), so
    /// the config should be read again.
    public func readEvents() -> Bool {
        var changed = false
        var lookAgain = false
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
                    let name = bytes[nameStart ..< nameEnd].prefix { $0 != 0 }
                    let (concernsFile, watchesChanged) = handle(event, name: name)
                    if concernsFile { changed = true }
                    if watchesChanged { lookAgain = true }
                }
            }
        }
        if lookAgain, refresh() { changed = true }
        return changed
    }

    /// What one event means: whether it concerns the config file, and whether the watches
    /// need looking at again (a directory went or came, the link changed).
    private func handle(_ event: inotify_event, name: Slice<UnsafeRawBufferPointer>) -> (Bool, Bool) {
        // The kernel's queue overflowed and events were dropped: one may have been ours.
        if event.mask & UInt32(IN_Q_OVERFLOW) != 0 { return (true, true) }
        let isOurs = watches.contains { $0.descriptor == event.wd }
        guard isOurs else { return (false, parentWatches.contains(event.wd)) }
        if event.mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
            // A directory moved away keeps its watch (on its new name): drop it, as for one removed.
            if event.mask & UInt32(IN_MOVE_SELF) != 0 { inotify_rm_watch(fileDescriptor, event.wd) }
            for index in watches.indices where watches[index].descriptor == event.wd {
                watches[index].descriptor = -1
            }
            return (true, true)
        }
        var concernsFile = false
        var linkChanged = false
        for (index, watch) in watches.enumerated() where watch.descriptor == event.wd && name.elementsEqual(watch.fileName.utf8) {
            // A new regular file is also written and closed: that event counts. A link is done at once.
            if event.mask & UInt32(IN_CREATE) != 0, !Self.isLink(watch.directory + "/" + watch.fileName) { continue }
            concernsFile = true
            if index == 0 { linkChanged = true }
        }
        if event.mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0, parentWatches.contains(event.wd) { linkChanged = true }
        return (concernsFile, linkChanged)
    }

    /// True while every directory is watched; false after one was removed and
    /// not made again yet.
    public var isWatching: Bool {
        watches.allSatisfy { $0.descriptor >= 0 }
    }

    /// Brings the watches up to date: a directory that is back is watched again, a link that
    /// points elsewhere now has its new target's directory watched, and each missing directory's
    /// nearest existing parent is watched for it to come back. `readEvents()` does this when the
    /// events call for it; the daemon also calls it on SIGHUP. True when a directory came back
    /// with the config in it, or the link now points to another file: the config should be read again.
    @discardableResult
    public func refresh() -> Bool {
        let before = watches
        var wanted: [Watch] = []
        for (directory, fileName) in Self.targets(of: path) {
            if let kept = before.first(where: { $0.directory == directory && $0.fileName == fileName && $0.descriptor >= 0 }) {
                wanted.append(kept)
            } else {
                wanted.append(Watch(directory: directory, fileName: fileName, descriptor: inotify_add_watch(fileDescriptor, directory, Self.mask)))
            }
        }
        for old in before where old.descriptor >= 0 && !wanted.contains(where: { $0.descriptor == old.descriptor }) {
            inotify_rm_watch(fileDescriptor, old.descriptor)
        }
        watches = wanted
        watchParentsOfMissingDirectories()
        let cameBack = watches.contains { watch in
            watch.descriptor >= 0 && !before.contains { $0.directory == watch.directory && $0.descriptor >= 0 }
        }
        let retargeted = watches.map(\.fileName) != before.map(\.fileName)
            || watches.map(\.directory) != before.map(\.directory)
        return (cameBack && ConfigFile.exists(path)) || retargeted
    }

    /// Watches the nearest existing parent of each missing directory (then tries the directory
    /// once more, in case it came back meanwhile), and stops watching parents no longer needed.
    private func watchParentsOfMissingDirectories() {
        var needed: Set<Int32> = []
        for index in watches.indices where watches[index].descriptor < 0 {
            var parent = Self.split(watches[index].directory).directory
            while true {
                let descriptor = inotify_add_watch(fileDescriptor, parent, Self.parentMask)
                if descriptor >= 0 {
                    needed.insert(descriptor)
                    break
                }
                if parent == "/" || parent == "." { break }
                parent = Self.split(parent).directory
            }
            watches[index].descriptor = inotify_add_watch(fileDescriptor, watches[index].directory, Self.mask)
        }
        for descriptor in parentWatches.subtracting(needed) where !watches.contains(where: { $0.descriptor == descriptor }) {
            inotify_rm_watch(fileDescriptor, descriptor)
        }
        parentWatches = watches.allSatisfy { $0.descriptor >= 0 } ? [] : needed
    }

    /// The directories to watch and the name that matters in each: `path`'s own, and when it is
    /// a symbolic link, the one of the file it points to (if another).
    private static func targets(of path: String) -> [(directory: String, fileName: String)] {
        var targets = [split(path)]
        if let resolved = resolvedTarget(of: path) {
            let target = split(resolved)
            if target != targets[0] { targets.append(target) }
        }
        return targets
    }

    private static func split(_ path: String) -> (directory: String, fileName: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }

    private static func isLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK
    }

    /// The file a symbolic link at `path` finally points to (`realpath`); for a link to nothing
    /// yet, the path it names. Nil when `path` is not a link.
    private static func resolvedTarget(of path: String) -> String? {
        guard isLink(path) else { return nil }
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        var bytes = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &bytes, bytes.count - 1)
        guard count > 0 else { return nil }
        let target = String(decoding: bytes[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return target.hasPrefix("/") ? target : split(path).directory + "/" + target
    }
}
