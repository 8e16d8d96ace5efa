@testable import Bridge
import DaydreamProtocol
import Foundation
import Glibc
import Testing
import TestSupport

/// The gyro-bias file as the daemon reads it at start: only finite biases a gyro could have,
/// from a regular file of a sensible size, and never a wait on what is there instead.
@Suite("gyro bias store (real files)")
struct GyroBiasStoreTests {
    static let address = "C0:DD:EE:00:00:01"

    @Test("a stored bias reads back")
    func roundTrip() throws {
        let directory = try TemporaryDirectory()
        let store = GyroBiasStore(directory: directory.path)
        #expect(store.save(Vector3(x: 0.01, y: -0.02, z: 0.03), for: Self.address) == nil)
        #expect(store.read() == GyroBiasStore.Contents(biases: [Self.address: Vector3(x: 0.01, y: -0.02, z: 0.03)]))
    }

    /// `calibrate` said "not stored (cannot make .../.local/state/daydream-bridge: No such file
    /// or directory)" for a user whose ~/.local/state did not exist yet.
    @Test("missing parents of the state directory are made, 0700")
    func missingParents() throws {
        let home = try TemporaryDirectory()
        let store = try #require(GyroBiasStore.forDaemon(environment: ["HOME": home.path]))
        #expect(store.save(Vector3(x: 0.01, y: 0, z: 0), for: Self.address) == nil)
        #expect(store.read().biases == [Self.address: Vector3(x: 0.01, y: 0, z: 0)])
        var status = stat()
        #expect(stat(home.path + "/.local", &status) == 0 && status.st_mode & 0o777 == 0o700)
        #expect(stat(home.path + "/.local/state", &status) == 0 && status.st_mode & 0o777 == 0o700)
    }

    @Test("no file is no bias and no problem")
    func missing() throws {
        let directory = try TemporaryDirectory()
        #expect(GyroBiasStore(directory: directory.path).read() == GyroBiasStore.Contents())
    }

    /// `nan` and `inf` reached the gyro path and trapped in `Int(NaN)`; 1e308 is no bias a
    /// 2048 deg/s gyro can have.
    @Test("nan, inf and 1e308 are refused, each line said", arguments: ["nan", "inf", "-inf", "1e308", "36"])
    func nonFiniteOrOutOfRange(value: String) throws {
        let directory = try TemporaryDirectory()
        try directory.write("gyro-bias", "\(Self.address) 0.01 \(value) 0\nC0:DD:EE:00:00:02 0.01 0.02 0.03\n")
        let contents = GyroBiasStore(directory: directory.path).read()
        #expect(contents.biases == ["C0:DD:EE:00:00:02": Vector3(x: 0.01, y: 0.02, z: 0.03)])
        #expect(contents.problems.count == 1)
        #expect(contents.problems.first?.hasPrefix("\(directory.path)/gyro-bias:1: a bias must be a finite number") == true)
    }

    /// A FIFO held the daemon's start in `open` until something wrote to it.
    @Test("a FIFO is refused without waiting for a writer")
    func fifo() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/gyro-bias"
        #expect(mkfifo(path, 0o600) == 0)
        let store = GyroBiasStore(directory: directory.path)
        let finished = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var contents: GyroBiasStore.Contents?
        Thread.detachNewThread {
            contents = store.read()
            finished.signal()
        }
        let done = finished.wait(timeout: .now() + 10) == .success
        if !done {
            // Release the reader: a writer that opens and closes gives it end of file.
            let writer = open(path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
            _ = finished.wait(timeout: .now() + 10)
        }
        #expect(done, "the read waited on the FIFO")
        #expect(contents?.biases.isEmpty == true)
        #expect(contents?.problems == ["gyro biases not loaded: cannot read \(path): it is a FIFO, not a regular file"])
    }

    /// A link to /dev/zero read until memory ran out.
    @Test("a link to a device is refused")
    func device() throws {
        let directory = try TemporaryDirectory()
        #expect(symlink("/dev/zero", directory.path + "/gyro-bias") == 0)
        let contents = GyroBiasStore(directory: directory.path).read()
        #expect(contents.biases.isEmpty)
        #expect(contents.problems == [
            "gyro biases not loaded: cannot read \(directory.path)/gyro-bias: it is a character device, not a regular file",
        ])
    }

    @Test("a 10 MB file is refused, its valid lines not taken")
    func tooLarge() throws {
        let directory = try TemporaryDirectory()
        let line = "\(Self.address) 0.01 0.02 0.03\n"
        try directory.write("gyro-bias", String(repeating: line, count: 10_000_000 / line.utf8.count))
        let contents = GyroBiasStore(directory: directory.path).read()
        #expect(contents.biases.isEmpty)
        #expect(contents.problems == ["gyro biases not loaded: cannot read \(directory.path)/gyro-bias: it is larger than 65536 bytes"])
    }
}
