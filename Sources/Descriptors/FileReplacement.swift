#if canImport(Glibc)
import Glibc
#endif

/// Replaces a file's contents so that a reader, or a crash, sees the old file or the new one,
/// never half of one: the bytes go to a temporary file beside it (a new name, made with
/// `O_EXCL`), are flushed to disk, and the temporary file is renamed over the old one. The new
/// file keeps the old one's permissions and group (`mode` for a file that did not exist). A file
/// the caller could not write itself, read-only or another user's, is refused rather than
/// replaced through the directory: the rename would make a new file, the caller's. A symbolic
/// link at the path is followed: its target is replaced, and the link stays.
public enum FileReplacement {
    /// Writes `bytes` as the new contents of `path`.
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws(SystemCallError) {
        let target = resolvedPath(path)
        try checkWritable(target)
        let temporary = try writeTemporary(bytes, beside: target, permissions: permissions(of: target, else: mode))
        try rename(temporary, over: target)
    }

    /// What tells one version of an open file from the next: its size and when it was changed.
    struct FileState: Equatable {
        var size: Int = -1
        var seconds: Int = 0
        var nanoseconds: Int = 0

        init(_ descriptor: Int32) {
            var status = stat()
            guard descriptor >= 0, fstat(descriptor, &status) == 0 else { return }
            size = Int(status.st_size)
            seconds = Int(status.st_mtim.tv_sec)
            nanoseconds = Int(status.st_mtim.tv_nsec)
        }
    }

    /// Throws when the file at `target` exists and the caller could not write it in place: it
    /// belongs to another user, has no write permission at all, or is not writable by the
    /// caller's effective ids.
    static func checkWritable(_ target: String) throws(SystemCallError) {
        var existing = stat()
        guard stat(target, &existing) == 0 else { return }
        if existing.st_uid != geteuid() {
            throw SystemCallError("not replacing \(target): it belongs to uid \(existing.st_uid), not to you (uid \(geteuid())), "
                                  + "and a new file would be yours; edit it as its owner", code: EPERM)
        }
        if existing.st_mode & 0o222 == 0 || faccessat(AT_FDCWD, target, W_OK, AT_EACCESS) != 0 {
            throw SystemCallError("not replacing \(target): it is read-only (mode \(String(existing.st_mode & 0o7777, radix: 8))); "
                                  + "make it writable first", code: EACCES)
        }
    }

    /// The permissions of the file at `target`, or `mode` when there is none.
    static func permissions(of target: String, else mode: mode_t) -> mode_t {
        var existing = stat()
        return stat(target, &existing) == 0 ? existing.st_mode & 0o7777 : mode
    }

    /// `bytes` in a new file beside `target` (a unique name, made with `O_EXCL` by `mkstemp`),
    /// with `permissions`, flushed to disk: its path.
    static func writeTemporary(_ bytes: [UInt8], beside target: String, permissions: mode_t) throws(SystemCallError) -> String {
        var template = Array((target + ".daydream-new.XXXXXX").utf8CString)
        let opened = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        let descriptor = try FileDescriptor(checking: opened, from: "make a temporary file beside \(target)")
        _ = fcntl(descriptor.rawValue, F_SETFD, FD_CLOEXEC)
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                retryingOnInterrupt { Glibc.write(descriptor.rawValue, buffer.baseAddress?.advanced(by: written), buffer.count - written) }
            }
            guard count > 0 else {
                let failure = SystemCallError("write \(temporary)")
                unlink(temporary)
                throw failure
            }
            written += count
        }
        // The old file's mode: `mkstemp` made it 0600.
        _ = fchmod(descriptor.rawValue, permissions)
        guard fsync(descriptor.rawValue) == 0 else {
            let failure = SystemCallError("fsync \(temporary)")
            unlink(temporary)
            throw failure
        }
        try descriptor.close()
        return temporary
    }

    static func rename(_ temporary: String, over target: String) throws(SystemCallError) {
        guard Glibc.rename(temporary, target) == 0 else {
            let failure = SystemCallError("rename \(temporary) to \(target)")
            unlink(temporary)
            throw failure
        }
    }

    /// Everything in the open file `descriptor`, from its start.
    static func readAll(_ descriptor: Int32, name: String) throws(SystemCallError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let offset = off_t(bytes.count)
            let count = chunk.withUnsafeMutableBytes { buffer in retryingOnInterrupt { pread(descriptor, buffer.baseAddress, buffer.count, offset) } }
            guard count >= 0 else { throw SystemCallError("read \(name)") }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }

    /// `path` with a final symbolic link followed (once per level, up to 8 levels).
    static func resolvedPath(_ path: String) -> String {
        var current = path
        for _ in 0..<8 {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length > 0 else { return current }
            let link = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if link.hasPrefix("/") {
                current = link
            } else if let slash = current.lastIndex(of: "/") {
                current = String(current[...slash]) + link
            } else {
                current = link
            }
        }
        return current
    }
}
