import Descriptors
#if canImport(Glibc)
import Glibc
#endif

/// Watches one config file for changes with inotify, for the daemon's loop.
///
/// It watches the file's directory, not the file, so it follows editors that
/// write a new file and rename it over the old one, and a file deleted and
/// created again; changes to other files in the directory are ignored. Every
/// symbolic link on the path is followed: the config itself a link (a config
/// kept with one's dotfiles), or its directory one (GNU stow's layout,
/// `~/.config/daydream-bridge` a link into `~/dotfiles`). Each link is watched
/// in the directory that holds it, so a link pointed elsewhere (`ln -sfn`,
/// `mv -T`, removed and made again) is seen, and the watches move to the new
/// target's directory and leave the old one. A directory that goes away (a
/// link replaced by a real directory, or the other way round) is waited for
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

    /// A directory as the kernel knows it, to tell a directory from another made at the same path.
    private struct Identity: Equatable {
        var device: UInt64
        var inode: UInt64
    }

    /// One step of the path (a link on the way, or the file) and the watch on its directory.
    private struct Watch: Equatable {
        var step: ConfigPathStep
        /// The inotify watch, or -1 while the directory is missing.
        var descriptor: Int32
        /// The directory the watch is on, as it was when watched.
        var identity: Identity?
    }

    /// The watched file.
    public let path: String
    /// The inotify fd to poll for reading.
    public var fileDescriptor: Int32 { inotify.rawValue }
    private let inotify: FileDescriptor
    /// The path's steps in order (see `ConfigPathSteps`): each link, then the file.
    private var watches: [Watch] = []
    /// Watches on the nearest existing parents of missing directories, waiting for them to come back.
    private var parentWatches: Set<Int32> = []
    private var buffer = [UInt8](repeating: 0, count: 4096)

    /// The events that mean the file has new contents or is gone, or a link on the path changed:
    /// written and closed, renamed into place, renamed away, deleted, a link made in its place; and
    /// the directory itself going away. The directories are found with no link left in them;
    /// `IN_DONT_FOLLOW` keeps a link that raced in at that name from being followed (the path is
    /// resolved again after the watches are made, and such a link is found then).
    private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)
        | UInt32(IN_DELETE_SELF | IN_MOVE_SELF) | UInt32(IN_ONLYDIR) | UInt32(IN_DONT_FOLLOW)
    /// What a parent of a missing directory is watched for: a directory (or a link) made or moved
    /// in, or the parent itself going away. Added to whatever else watches that directory.
    private static let parentMask = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF)
        | UInt32(IN_ONLYDIR) | UInt32(IN_MASK_ADD)
    /// How often `refresh()` resolves the path again when it changed while being watched.
    private static let settleAttempts = 4

    /// Starts watching the directories of `path`'s steps (`inotify_init1`, `inotify_add_watch`).
    public init(path: String) throws(WatchError) {
        self.path = path
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw WatchError(call: "inotify_init1", path: path, code: errno) }
        // A throw below closes it: the owner goes with the half-made watcher.
        inotify = FileDescriptor(owning: fd)
        for step in ConfigPathSteps.of(path) {
            let watch = arm(step)
            guard watch.descriptor >= 0 else { throw WatchError(call: "inotify_add_watch", path: step.directory, code: errno) }
            watches.append(watch)
        }
    }

    /// Reads every pending event; true when one of them concerns the config file
    /// (or a watched directory went away, or came back with the file in it), so
    /// the config should be read again.
    public func readEvents() -> Bool {
        var changed = false
        var lookAgain = false
        while true {
            let count = buffer.withUnsafeMutableBytes { bytes in retryingOnInterrupt { read(fileDescriptor, bytes.baseAddress, bytes.count) } }
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
    /// need looking at again (a directory went or came, a link on the path changed).
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
        var stepsChanged = false
        for watch in watches where watch.descriptor == event.wd && name.elementsEqual(watch.step.name.utf8) {
            if event.mask & UInt32(IN_CLOSE_WRITE) != 0 {
                concernsFile = true
                continue
            }
            // A new regular file is also written and closed: that event counts. A link is done at once.
            if event.mask & UInt32(IN_CREATE) != 0, !watch.step.isLink, !Self.isLink(watch.step.directory + "/" + watch.step.name) {
                continue
            }
            // Made, removed or renamed: a link on the path, or the file (which may be a link now).
            concernsFile = true
            stepsChanged = true
        }
        if event.mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0, parentWatches.contains(event.wd) { stepsChanged = true }
        return (concernsFile, stepsChanged)
    }

    /// True while every directory is watched; false after one was removed and
    /// not made again yet.
    public var isWatching: Bool {
        watches.allSatisfy { $0.descriptor >= 0 }
    }

    /// Brings the watches up to date: the path is resolved again, link by link; a directory that
    /// is back is watched again, a link that points elsewhere now has its new target's directory
    /// watched (and the old one no longer), and each missing directory's nearest existing parent
    /// is watched for it to come back. `readEvents()` does this when the events call for it. True
    /// when a directory came back with the config in it, or the path now leads elsewhere: the
    /// config should be read again.
    @discardableResult
    public func refresh() -> Bool {
        var changed = false
        for _ in 0..<Self.settleAttempts {
            let steps = ConfigPathSteps.of(path)
            if update(to: steps) { changed = true }
            // A link changed while the watches were made: the events may have gone to the old ones.
            if ConfigPathSteps.of(path) == steps { break }
        }
        return changed
    }

    /// Drops every watch and makes them again from the path as it is now, whatever the events
    /// said: the daemon does this on SIGHUP, so a watch that went stale (events lost, a change
    /// not seen) is put right. The caller reads the config after, so nothing changed meanwhile
    /// is missed.
    public func rearm() {
        var dropped = Set(watches.map(\.descriptor))
        dropped.formUnion(parentWatches)
        for descriptor in dropped where descriptor >= 0 { inotify_rm_watch(fileDescriptor, descriptor) }
        watches = []
        parentWatches = []
        refresh()
    }

    /// Watches `steps`, keeping each watch whose directory is still the same one; true when a
    /// directory came back with the config in it, or the steps are not those watched before.
    private func update(to steps: [ConfigPathStep]) -> Bool {
        let before = watches
        var wanted: [Watch] = []
        for step in steps {
            let identity = Self.identity(of: step.directory)
            if identity != nil, let kept = before.first(where: { $0.step.directory == step.directory && $0.descriptor >= 0 && $0.identity == identity }) {
                wanted.append(Watch(step: step, descriptor: kept.descriptor, identity: kept.identity))
            } else if let kept = wanted.first(where: { $0.step.directory == step.directory && $0.descriptor >= 0 }) {
                wanted.append(Watch(step: step, descriptor: kept.descriptor, identity: kept.identity))
            } else {
                wanted.append(arm(step))
            }
        }
        for old in before where old.descriptor >= 0 && !wanted.contains(where: { $0.descriptor == old.descriptor }) {
            inotify_rm_watch(fileDescriptor, old.descriptor)
        }
        watches = wanted
        watchParentsOfMissingDirectories()
        let cameBack = watches.contains { watch in
            watch.descriptor >= 0 && !before.contains { $0.step.directory == watch.step.directory && $0.descriptor >= 0 }
        }
        let retargeted = watches.map(\.step) != before.map(\.step)
        return (cameBack && ConfigFile.exists(path)) || retargeted
    }

    /// A watch on `step`'s directory; its descriptor is -1 (and `errno` says why) when the
    /// directory cannot be watched.
    private func arm(_ step: ConfigPathStep) -> Watch {
        let identity = Self.identity(of: step.directory)
        let descriptor = inotify_add_watch(fileDescriptor, step.directory, Self.mask)
        return Watch(step: step, descriptor: descriptor, identity: identity)
    }

    /// Watches the nearest existing parent of each missing directory (then tries the directory
    /// once more, in case it came back meanwhile), and stops watching parents no longer needed.
    private func watchParentsOfMissingDirectories() {
        var needed: Set<Int32> = []
        for index in watches.indices where watches[index].descriptor < 0 {
            var parent = Self.parent(of: watches[index].step.directory)
            while true {
                let descriptor = inotify_add_watch(fileDescriptor, parent, Self.parentMask)
                if descriptor >= 0 {
                    needed.insert(descriptor)
                    break
                }
                if parent == "/" || parent == "." { break }
                parent = Self.parent(of: parent)
            }
            watches[index] = arm(watches[index].step)
        }
        for descriptor in parentWatches.subtracting(needed) where !watches.contains(where: { $0.descriptor == descriptor }) {
            inotify_rm_watch(fileDescriptor, descriptor)
        }
        parentWatches = watches.allSatisfy { $0.descriptor >= 0 } ? [] : needed
    }

    private static func parent(of directory: String) -> String {
        guard let slash = directory.lastIndex(of: "/") else { return "." }
        let parent = String(directory[..<slash])
        return parent.isEmpty ? "/" : parent
    }

    private static func isLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK
    }

    /// The directory at `path` (not following a last link), or nil when there is none.
    private static func identity(of path: String) -> Identity? {
        var status = stat()
        guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else { return nil }
        return Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }
}
