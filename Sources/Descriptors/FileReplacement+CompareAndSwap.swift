#if canImport(Glibc)
import Glibc
#endif

extension FileReplacement {
    /// Writes `bytes` as the new contents of `path` only if it still holds `expected`, the text
    /// the caller edited: a compare-and-swap, so another writer's change is never written over.
    /// The old file is compared through a descriptor held across the rename, under a read lease
    /// (`WriterWatch`) where the kernel grants one: refused while the file is open for writing
    /// anywhere, and a writer that comes to the old file during the swap waits, then finds the old
    /// file put back, with ours dropped. Without a lease, a write into the old file seen after the
    /// rename is put back the same way. False when the file was not replaced.
    public static func write(_ bytes: [UInt8], to path: String, replacing expected: [UInt8]) throws(SystemCallError) -> Bool {
        try write(bytes, to: path, replacing: expected, whileSwapped: { _ in })
    }

    /// The same, with `whileSwapped` run just after the rename, given the old file's descriptor:
    /// where a test puts a writer that comes at the worst moment.
    static func write(_ bytes: [UInt8], to path: String, replacing expected: [UInt8],
                      whileSwapped: (Int32) -> Void) throws(SystemCallError) -> Bool {
        let target = resolvedPath(path)
        try checkWritable(target)
        let old = open(target, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard old >= 0 else {
            if errno == ENOENT { return false }
            throw SystemCallError("open \(target)")
        }
        // Closed last: closing it ends the lease, which lets a waiting writer in.
        defer { close(old) }
        var watch = WriterWatch(old)
        defer { watch.end() }
        if watch.state == .busy { return false }
        guard try readAll(old, name: target) == expected, isOpen(old, at: target) else { return false }
        let checked = FileState(old)
        let temporary = try writeTemporary(bytes, beside: target, permissions: permissions(of: target, else: 0o644))
        let backup = watch.state == .held ? link(beside: target, to: old) : nil
        try rename(temporary, over: target)
        whileSwapped(old)
        let writerCame = watch.state == .held ? watch.isBreaking : FileState(old) != checked
        guard writerCame else {
            if let backup { unlink(backup) }
            return true
        }
        // Another writer came to the old file: it goes back in its place, ours is dropped.
        if let backup {
            if Glibc.rename(backup, target) == 0 { return false }
            unlink(backup)
        }
        let theirs = try readAll(old, name: target)
        try rename(try writeTemporary(theirs, beside: target, permissions: permissions(of: target, else: 0o644)), over: target)
        return false
    }

    /// Whether `descriptor` is the file `path` names now.
    private static func isOpen(_ descriptor: Int32, at path: String) -> Bool {
        var open = stat(), named = stat()
        return fstat(descriptor, &open) == 0 && stat(path, &named) == 0 && open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    /// A second name beside `target` for the file open as `descriptor` (a hard link), so that it
    /// can be put back after it was renamed over; nil when none can be made.
    private static func link(beside target: String, to descriptor: Int32) -> String? {
        var template = Array((target + ".daydream-old.XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard made >= 0 else { return nil }
        close(made)
        let name = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        unlink(name)
        guard Glibc.link(target, name) == 0 else { return nil }
        guard isOpen(descriptor, at: name) else {
            unlink(name)
            return nil
        }
        return name
    }
}

/// A read lease on an open file (`fcntl` `F_SETLEASE`): the kernel grants it only while no one
/// has the file open for writing, and once it is held, anyone opening the file to write waits
/// until it ends, which the holder sees as a break (`isBreaking`).
struct WriterWatch {
    enum State {
        /// The lease is held.
        case held
        /// The file is open for writing elsewhere.
        case busy
        /// No lease here (another owner's file, a file system without leases): nothing is watched.
        case unavailable
    }

    let descriptor: Int32
    private(set) var state: State

    /// Linux's `F_SETLEASE`, `F_GETLEASE` and `F_SETSIG`, which Glibc declares for `_GNU_SOURCE` only.
    private static let setLease: Int32 = 1024, getLease: Int32 = 1025, setSignal: Int32 = 10

    init(_ descriptor: Int32) {
        self.descriptor = descriptor
        // A break signals the lease's owner, with SIGIO unless told otherwise, which would end
        // the process: SIGURG, which is ignored unless handled, and then no owner at all.
        _ = fcntl(descriptor, Self.setSignal, SIGURG)
        if fcntl(descriptor, Self.setLease, Int32(F_RDLCK)) == 0 {
            _ = fcntl(descriptor, F_SETOWN, 0)
            state = .held
        } else {
            state = errno == EAGAIN ? .busy : .unavailable
        }
    }

    /// Whether someone is waiting to open the file for writing.
    var isBreaking: Bool { fcntl(descriptor, Self.getLease) != Int32(F_RDLCK) }

    /// Gives the lease up: a waiting writer goes on.
    mutating func end() {
        guard state == .held else { return }
        _ = fcntl(descriptor, Self.setLease, Int32(F_UNLCK))
        state = .unavailable
    }
}
