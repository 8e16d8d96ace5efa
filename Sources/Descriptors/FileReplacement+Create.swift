#if canImport(Glibc)
import Glibc
#endif

extension FileReplacement {
    /// Makes a new file at `path` holding `bytes`, whole or not at all, and never over a file that
    /// is there: the bytes go to a temporary file beside it, flushed to disk, which is then linked
    /// to `path` (`link` fails when the name is taken, whoever took it, even between a check and
    /// the write). False, with nothing changed, when `path` exists.
    public static func create(_ bytes: [UInt8], at path: String, mode: mode_t = 0o644) throws(SystemCallError) -> Bool {
        let temporary = try writeTemporary(bytes, beside: path, permissions: mode)
        defer { unlink(temporary) }
        guard link(temporary, path) == 0 else {
            if errno == EEXIST { return false }
            throw SystemCallError("link \(temporary) to \(path)")
        }
        return true
    }

    /// Makes `directory` and the directories above it that are missing, each new one with `mode`
    /// (0700: the XDG base directory spec's for a directory it makes); those already there stay
    /// as they are.
    public static func makeDirectories(_ directory: String, mode: mode_t = 0o700) throws(SystemCallError) {
        var path = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            path += "/" + component
            if mkdir(path, mode) != 0, errno != EEXIST {
                throw SystemCallError("make the directory \(path)")
            }
        }
    }
}
