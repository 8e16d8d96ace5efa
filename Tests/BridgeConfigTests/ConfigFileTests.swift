import Descriptors
import Foundation
import Glibc
import Testing
@testable import BridgeConfig
import TestSupport

@Suite("Config file reading")
struct ConfigFileTests {
    /// A FIFO at the config path: opening it for reading waited for a writer, which held the
    /// daemon's whole loop on SIGHUP (the control socket timed out, a held click stayed down).
    /// It is refused at once now. Were it to wait, a writer comes after two seconds and the
    /// read returns nothing, so the test fails instead of hanging.
    @Test func aFIFOIsRefusedAtOnce() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/config.toml"
        try #require(mkfifo(path, 0o600) == 0)
        let unblocker = Thread {
            Thread.sleep(forTimeInterval: 2)
            let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            if fd >= 0 { try? FileDescriptor(owning: fd).close() }  // the writer comes and goes
        }
        unblocker.start()
        let started = Date()
        #expect(throws: ConfigFile.ReadError(path: path, code: EINVAL, fileType: "a FIFO")) {
            _ = try ConfigFile.read(path)
        }
        #expect(Date().timeIntervalSince(started) < 1)
        #expect(ConfigFile.ReadError(path: path, code: EINVAL, fileType: "a FIFO").description
            == "cannot read \(path): it is a FIFO, not a regular file")
        #expect(!ConfigFile.exists(path))
    }

    @Test func aDirectoryIsRefused() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: ConfigFile.ReadError(path: directory.path, code: EISDIR)) {
            _ = try ConfigFile.read(directory.path)
        }
    }

    @Test func aLinkToARegularFileIsRead() throws {
        let directory = try TemporaryDirectory()
        try directory.write("real.toml", "a = 1\n")
        try #require(symlink("real.toml", directory.path + "/config.toml") == 0)
        #expect(try ConfigFile.read(directory.path + "/config.toml") == Array("a = 1\n".utf8))
    }
}
