import Foundation
import Glibc
import TestSupport
import Testing

/// `profile NAME -- COMMAND...` against the built binary and a replaying daemon: the command runs
/// in NAME, the profile from before comes back when it exits, however it ends, and its status is
/// passed on.
@Suite("profile -- COMMAND", .serialized, .requires(BuiltBinary.exists, "the daydream-bridge binary is not built"))
struct LaunchWrapperTests {
    struct Rig {
        let scratch: TemporaryDirectory
        let daemon: RunningBinary
        var socket: String { scratch.path + "/control" }

        init() throws {
            scratch = try RunCommandTests.makeDirectory()
            daemon = try RunCommandTests().start(scratch.path)
            let socket = scratch.path + "/control"
            #expect(daemon.waitFor { FileManager.default.fileExists(atPath: socket) }, "\(daemon.stderr)")
        }

        func finish() {
            daemon.signal(SIGTERM)
            _ = daemon.waitForExit()
        }

        /// The profile new controllers start in, from the daemon.
        func active() throws -> String {
            try BuiltBinary.run(["profile", "--socket", socket]).stdout
        }

        /// The wrapper around `script` (run by sh); the script sees the binary as $BRIDGE and the socket as $SOCKET.
        func wrap(_ name: String, _ script: String) throws -> BuiltBinary.Result {
            try BuiltBinary.run(["profile", name, "--socket", socket, "--", "/bin/sh", "-c", script],
                                environment: ["BRIDGE": BuiltBinary.url.path, "SOCKET": socket, "OUT": scratch.path + "/inside"])
        }

        func inside() -> String { (try? String(contentsOfFile: scratch.path + "/inside", encoding: .utf8)) ?? "" }
    }

    @Test func theCommandRunsInTheProfileAndItsStatusIsPassedOn() throws {
        let rig = try Rig()
        defer { rig.finish() }
        let before = try rig.active()
        let result = try rig.wrap("keys", "\"$BRIDGE\" profile --socket \"$SOCKET\" > \"$OUT\"; exit 3")
        #expect(result.status == 3, "\(result.stderr)")
        #expect(rig.inside().contains("keys"), "the command ran in the wrapper's profile: \(rig.inside())")
        #expect(!before.contains("keys"))
        #expect(try rig.active() == before, "the profile from before came back")
    }

    @Test func aKilledCommandStillRestoresAndGives128PlusTheSignal() throws {
        let rig = try Rig()
        defer { rig.finish() }
        let before = try rig.active()
        let killed = try rig.wrap("keys", "\"$BRIDGE\" profile --socket \"$SOCKET\" > \"$OUT\"; kill -KILL $$")
        #expect(killed.status == 128 + SIGKILL)
        #expect(rig.inside().contains("keys"))
        #expect(try rig.active() == before)
    }

    @Test func aSignalToTheWrapperGoesToTheCommand() throws {
        let rig = try Rig()
        defer { rig.finish() }
        let before = try rig.active()
        // The wrapper runs in the background; the script reports its shell's pid, then waits.
        let pidFile = rig.scratch.path + "/pid"
        let wrapperDirectory = rig.scratch.path + "/wrapper"
        try FileManager.default.createDirectory(atPath: wrapperDirectory, withIntermediateDirectories: true)
        let wrapper = try RunningBinary(
            ["profile", "keys", "--socket", rig.socket, "--", "/bin/sh", "-c", "echo $$ > \"$PIDFILE\"; exec sleep 60"],
            directory: wrapperDirectory, environment: ["PIDFILE": pidFile])
        #expect(wrapper.waitFor { FileManager.default.fileExists(atPath: pidFile) })
        #expect(try rig.active() != before)
        wrapper.signal(SIGTERM)
        #expect(wrapper.waitForExit(timeout: 10) == 128 + SIGTERM)
        #expect(try rig.active() == before)
    }

    @Test func aMissingCommandIs127AndRestores() throws {
        let rig = try Rig()
        defer { rig.finish() }
        let before = try rig.active()
        let result = try BuiltBinary.run(["profile", "keys", "--socket", rig.socket, "--", "/nonexistent/game"])
        #expect(result.status == 127)
        #expect(result.stderr.contains("cannot run '/nonexistent/game'"), "\(result.stderr)")
        #expect(try rig.active() == before)
    }
}
