import Descriptors
import Glibc

/// A directory made for one test (under `$TMPDIR`, else /tmp) and removed, with everything in
/// it, when the object goes: subdirectories too, and links without following them.
public final class TemporaryDirectory {
    /// The directory's path.
    public let path: String

    /// Makes a fresh directory named `PREFIX-XXXXXX`.
    public init(prefix: String = "daydream-test") throws {
        let parent = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(parent)/\(prefix)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) }
        }
        guard let made else { throw TestFailure("mkdtemp failed: errno \(errno)") }
        path = made
    }

    deinit {
        Self.removeTree(path)
    }

    /// The path of `name` in this directory.
    public func path(_ name: String) -> String {
        path + "/" + name
    }

    /// Writes `text` to `name` in this directory (creating or truncating it).
    public func write(_ name: String, _ text: String) throws {
        try write(path: path + "/" + name, text)
    }

    /// Writes `text` to the file at `file` (creating or truncating it).
    public func write(path file: String, _ text: String) throws {
        let opened = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard opened >= 0 else { throw TestFailure("open \(file): errno \(errno)") }
        let fd = FileDescriptor(owning: opened)
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ Glibc.write(fd.rawValue, $0.baseAddress, $0.count) }) == bytes.count else {
            throw TestFailure("write \(file): errno \(errno)")
        }
        // A file written: its close is part of the write, and reports a failure.
        do { try fd.close() } catch { throw TestFailure("close \(file): \(error)") }
    }

    /// Renames `from` to `to` in this directory.
    public func rename(_ from: String, _ to: String) throws {
        guard Glibc.rename(path + "/" + from, path + "/" + to) == 0 else { throw TestFailure("rename: errno \(errno)") }
    }

    /// Removes the file `name` from this directory.
    public func remove(_ name: String) throws {
        guard unlink(path + "/" + name) == 0 else { throw TestFailure("unlink: errno \(errno)") }
    }

    /// Removes `path`: a directory after everything in it, anything else (a link too) by unlink.
    private static func removeTree(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            unlink(path)
            return
        }
        for name in names(in: path) { removeTree(path + "/" + name) }
        rmdir(path)
    }

    private static func names(in path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
