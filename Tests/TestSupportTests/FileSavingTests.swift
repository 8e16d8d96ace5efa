import Foundation
import Glibc
import TestSupport
import Testing

/// `String.save(toFile:)` replaces a file the way an editor saves it, and leaves nothing else.
@Suite struct FileSavingTests {
    static func inode(_ path: String) -> ino_t? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_ino : nil
    }

    @Test func aSaveReplacesTheFileByRenameAndLeavesNothingBeside() throws {
        let scratch = try TemporaryDirectory()
        try "first\n".save(toFile: scratch.path("config.toml"))
        let before = try #require(Self.inode(scratch.path("config.toml")))

        try "second\n".save(toFile: scratch.path("config.toml"))

        #expect(try String(contentsOfFile: scratch.path("config.toml"), encoding: .utf8) == "second\n")
        // A new file took the name: a watcher sees one rename, never a truncated file.
        #expect(Self.inode(scratch.path("config.toml")) != before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["config.toml"])
    }

    @Test func aSaveThatCannotRenameSaysWhyAndLeavesNothing() throws {
        let scratch = try TemporaryDirectory()
        #expect(mkdir(scratch.path("taken"), 0o755) == 0)
        try "x\n".save(toFile: scratch.path("taken/inside"))
        // A directory cannot be replaced by a file.
        #expect(throws: TestFailure.self) { try "text\n".save(toFile: scratch.path("taken")) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["taken"])
    }
}
