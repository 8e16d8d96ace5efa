@testable import Descriptors
import Foundation
import Testing

/// Replacing a file: the new contents, the old permissions, a link kept as a link, and nothing
/// left behind.
@Suite struct FileReplacementTests {
    @Test func theContentsChangeAndThePermissionsAndTheLinkStay() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("daydream-replace-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory + "/dotfiles", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let real = directory + "/dotfiles/config.toml"
        try "old\n".write(toFile: real, atomically: false, encoding: .utf8)
        #expect(chmod(real, 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: directory + "/config.toml", withDestinationPath: "dotfiles/config.toml")

        try FileReplacement.write(Array("new\n".utf8), to: directory + "/config.toml")

        #expect(try String(contentsOfFile: real, encoding: .utf8) == "new\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/config.toml") == "dotfiles/config.toml")
        var status = stat()
        #expect(stat(real, &status) == 0 && status.st_mode & 0o777 == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/dotfiles") == ["config.toml"])
    }

    @Test func aDirectoryThatCannotBeWrittenIsAnErrorAndTheFileStays() throws {
        #expect(throws: SystemCallError.self) { try FileReplacement.write(Array("x".utf8), to: "/proc/version") }
        #expect(try String(contentsOfFile: "/proc/version", encoding: .utf8).hasPrefix("Linux"))
    }

    /// A file that is no longer what the caller read is not replaced, and keeps what the other
    /// writer put in it.
    @Test func aFileChangedSinceItWasReadIsNotReplaced() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/config.toml"
        try "old\nappended\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(try !FileReplacement.write(Array("new\n".utf8), to: path, replacing: Array("old\n".utf8)))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\nappended\n")
        #expect(try FileReplacement.write(Array("new\n".utf8), to: path, replacing: Array("old\nappended\n".utf8)))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["config.toml"])
    }

    /// A file open for writing elsewhere (an appender between two lines) is not replaced: what it
    /// writes next lands in the file at the path, not in one renamed away.
    @Test func aFileOpenForWritingIsNotReplaced() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/config.toml"
        try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
        let writer = open(path, O_WRONLY | O_APPEND)
        #expect(writer >= 0)
        #expect(try !FileReplacement.write(Array("new\n".utf8), to: path, replacing: Array("old\n".utf8)))
        #expect(Glibc.write(writer, "appended\n", 9) == 9)
        close(writer)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\nappended\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["config.toml"])
    }

    /// A writer that comes to the old file while the new one takes its place (opening it as it
    /// was renamed away) finds the old file back at the path, with what it wrote; ours is dropped.
    @Test func aWriterThatComesDuringTheSwapGetsTheOldFileBack() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/config.toml"
        try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
        var original = stat()
        #expect(stat(path, &original) == 0)
        var waited = false
        let replaced = try FileReplacement.write(Array("new\n".utf8), to: path, replacing: Array("old\n".utf8)) { old in
            // Without waiting: with the lease held, the open waits for it to end (EWOULDBLOCK here).
            let writer = open("/proc/self/fd/\(old)", O_WRONLY | O_APPEND | O_NONBLOCK)
            if writer >= 0 {
                _ = Glibc.write(writer, "appended\n", 9)
                close(writer)
            } else {
                waited = errno == EWOULDBLOCK
            }
        }
        #expect(!replaced)
        if waited {
            // The writer's open goes on now, into the old file, which is back at the path.
            var now = stat()
            #expect(stat(path, &now) == 0 && now.st_ino == original.st_ino)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
        } else {
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\nappended\n")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["config.toml"])
    }

    /// A read-only file, or (when the tests can make one) another user's file in a directory the
    /// caller owns, is refused with the reason: renamed over, it would become a new file, the
    /// caller's, and writable.
    @Test func aFileTheCallerCouldNotWriteIsRefusedNotReplaced() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/config.toml"
        try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(chmod(path, 0o444) == 0)
        #expect(throws: SystemCallError("not replacing \(path): it is read-only (mode 444); make it writable first", code: EACCES)) {
            try FileReplacement.write(Array("new\n".utf8), to: path)
        }
        #expect(throws: SystemCallError.self) { try FileReplacement.write(Array("new\n".utf8), to: path, replacing: Array("old\n".utf8)) }
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == 0o444 && status.st_uid == geteuid())
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")

        guard geteuid() == 0 else { return }  // Only root can give a file to another user.
        #expect(chmod(path, 0o644) == 0 && chown(path, 65534, 65534) == 0)
        #expect(throws: SystemCallError.self) { try FileReplacement.write(Array("new\n".utf8), to: path) }
        #expect(throws: SystemCallError.self) { try FileReplacement.write(Array("new\n".utf8), to: path, replacing: Array("old\n".utf8)) }
        #expect(stat(path, &status) == 0 && status.st_uid == 65534 && status.st_mode & 0o777 == 0o644)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["config.toml"])
    }

    static func makeDirectory() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("daydream-replace-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The temporary file is a new one (`O_EXCL`): whatever another user left at a name beside
    /// the file, a link to elsewhere among them, is neither followed nor written.
    @Test func theTemporaryFileIsANewOne() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("daydream-replace-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "old\n".write(toFile: directory + "/config.toml", atomically: false, encoding: .utf8)
        try "victim\n".write(toFile: directory + "/victim", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: directory + "/config.toml.daydream-new", withDestinationPath: "victim")

        try FileReplacement.write(Array("new\n".utf8), to: directory + "/config.toml")

        #expect(try String(contentsOfFile: directory + "/config.toml", encoding: .utf8) == "new\n")
        #expect(try String(contentsOfFile: directory + "/victim", encoding: .utf8) == "victim\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["config.toml", "config.toml.daydream-new", "victim"])
    }
}
