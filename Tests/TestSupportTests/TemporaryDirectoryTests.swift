import Glibc
import TestSupport
import Testing

/// `TemporaryDirectory` leaves nothing behind: files, nested directories and links go with it,
/// and a link's target outside it stays.
@Suite struct TemporaryDirectoryTests {
    static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    @Test func removesEverythingItHoldsWhenItGoes() throws {
        let outside = try TemporaryDirectory(prefix: "daydream-outside")
        try outside.write("kept", "kept\n")
        var directory: TemporaryDirectory? = try TemporaryDirectory()
        let path = try #require(directory?.path)
        try directory?.write("top", "1\n")
        #expect(mkdir(path + "/nested", 0o755) == 0)
        #expect(mkdir(path + "/nested/deeper", 0o755) == 0)
        try directory?.write("nested/deeper/file", "2\n")
        try directory?.write(".hidden", "3\n")
        #expect(symlink(outside.path, path + "/nested/link-to-outside") == 0)
        #expect(Self.exists(path + "/nested/deeper/file"))

        directory = nil

        #expect(!Self.exists(path), "\(path) is left behind")
        #expect(Self.exists(outside.path("kept")), "the link was followed")
    }

    @Test func makesAFreshDirectoryEachTime() throws {
        let first = try TemporaryDirectory(prefix: "daydream-fresh")
        let second = try TemporaryDirectory(prefix: "daydream-fresh")
        #expect(first.path != second.path)
        #expect(first.path.split(separator: "/").last?.hasPrefix("daydream-fresh-") == true)
        #expect(first.path("a") == first.path + "/a")
    }
}
