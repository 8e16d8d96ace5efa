import Foundation
import Glibc
import TestSupport
import Testing

/// `RunningBinary` tells how a program ended, and two runs in one directory keep their own output.
@Suite struct RunningBinaryTests {
    @Test func anExitAndASignalAreTheirStatus() throws {
        let scratch = try TemporaryDirectory()
        let exits = try RunningBinary(program: "/bin/sh", ["-c", "echo out; exit 3"], directory: scratch.path, name: "exits")
        #expect(exits.waitForExit() == 3)
        #expect(exits.exitStatus == 3)
        #expect(exits.stdout == "out\n")

        let sleeps = try RunningBinary(program: "/bin/sleep", ["30"], directory: scratch.path, name: "sleeps")
        #expect(sleeps.exitStatus == nil)
        // SIGKILL: a child of the test process inherits its blocked SIGTERM.
        sleeps.signal(SIGKILL)
        #expect(sleeps.waitForExit() == SIGKILL)
    }

    /// The built binary's runs are unnamed: a second in the same directory must not write over
    /// the first's output (a `run --print` and a `ui` once shared one `stdout`).
    @Test(.requires(BuiltBinary.exists, "the daydream-bridge binary is not built"))
    func aSecondRunInADirectoryWritesFilesOfItsOwn() throws {
        let scratch = try TemporaryDirectory()
        let first = try RunningBinary(["--version"], directory: scratch.path)
        let second = try RunningBinary(["--help"], directory: scratch.path)
        #expect(first.waitForExit() == 0 && second.waitForExit() == 0)
        #expect(first.stdoutPath != second.stdoutPath && first.stderrPath != second.stderrPath)
        #expect(first.stdout.hasPrefix("daydream-bridge "), "\(first.stdout)")
        #expect(second.stdout.lowercased().contains("usage"), "\(second.stdout)")
    }
}
