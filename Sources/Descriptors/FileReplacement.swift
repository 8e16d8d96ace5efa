#if canImport(Glibc)
import Glibc
#endif

/// Replaces a file's contents so that a reader, or a crash, sees the old file or the new one,
/// never half of one: the bytes go to a temporary file beside it, are flushed to disk, and the
/// temporary file is renamed over the old one. The new file keeps the old one's permissions
/// (`mode` for a file that did not exist). A symbolic link at the path is followed: its target
/// is replaced, and the link stays.
public enum FileReplacement {
    /// Writes `bytes` as the new contents of `path`.
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws(SystemCallError) {
        let target = resolvedPath(path)
        var existing = stat()
        let permissions = stat(target, &existing) == 0 ? existing.st_mode & 0o7777 : mode
        let temporary = target + ".daydream-new"
        let descriptor = try FileDescriptor(
            checking: open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, permissions), from: "open \(temporary)")
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor.rawValue, $0.baseAddress?.advanced(by: written), $0.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                let failure = SystemCallError("write \(temporary)")
                unlink(temporary)
                throw failure
            }
            written += count
        }
        // The mode again: `open` applied the umask.
        _ = fchmod(descriptor.rawValue, permissions)
        guard fsync(descriptor.rawValue) == 0 else {
            let failure = SystemCallError("fsync \(temporary)")
            unlink(temporary)
            throw failure
        }
        try descriptor.close()
        guard rename(temporary, target) == 0 else {
            let failure = SystemCallError("rename \(temporary) to \(target)")
            unlink(temporary)
            throw failure
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
