import Foundation

extension String {
    /// Saves the string as an editor does: written in full to a new file beside `path`, then renamed
    /// over it, so a watcher never reads half a file. (Foundation's `atomically: true` leaves an empty
    /// `TemporaryDirectory.*` in /tmp behind on Linux at every call.)
    public func save(toFile path: String) throws {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = directory + "/." + name + ".saving"
        try write(toFile: temporary, atomically: false, encoding: .utf8)
        guard rename(temporary, path) == 0 else {
            let failure = errno
            unlink(temporary)
            throw TestFailure("rename \(temporary) to \(path): errno \(failure)")
        }
    }

    /// `save(toFile:)` for a file URL.
    public func save(to url: URL) throws {
        try save(toFile: url.path)
    }
}
