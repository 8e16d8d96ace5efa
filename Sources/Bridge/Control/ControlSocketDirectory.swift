#if canImport(Glibc)
import Glibc
#endif

/// The directory the control socket is made in, checked as `$XDG_RUNTIME_DIR` is: a directory
/// (not a link to one) owned by the daemon's user and writable by nobody else. Anyone who could
/// write there could put a socket of their own at the path, which `profile`, `list` and `watch`
/// would then talk to, or replace the daemon's.
enum ControlSocketDirectory {
    /// The directory `path` is in (`.` for a bare name, `/` for one at the root).
    static func of(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Throws, saying what is wrong and what to do, unless `directory` is a directory owned by
    /// `owner` with no write permission for its group or others.
    static func check(_ directory: String, owner: uid_t = geteuid()) throws(ControlSocketError) {
        var status = stat()
        guard lstat(directory, &status) == 0 else { throw ControlSocketError(call: "lstat", path: directory, code: errno) }
        let advice = "another user could replace the control socket; choose another --socket path"
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw ControlSocketError("the control socket's directory \(directory) is not a directory of its own (a link?): \(advice)")
        }
        guard status.st_uid == owner else {
            throw ControlSocketError("the control socket's directory \(directory) belongs to uid \(status.st_uid), "
                + "not to this daemon's user (uid \(owner)): \(advice)")
        }
        let writableByOthers = status.st_mode & (S_IWGRP | S_IWOTH)
        guard writableByOthers == 0 else {
            let mode = String(status.st_mode & 0o7777, radix: 8)
            throw ControlSocketError("the control socket's directory \(directory) can be written by other users (mode \(mode)): \(advice)")
        }
    }
}
