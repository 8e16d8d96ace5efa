import Descriptors
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
}
