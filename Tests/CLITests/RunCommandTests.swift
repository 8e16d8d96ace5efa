import DaydreamProtocol
import Foundation
import TestSupport
import Testing

/// `run` as a daemon, against the built binary: the controller comes from a recording (`--replay`) and
/// the events go to standard output (`--print`), so signals, reloads and the control socket are tested
/// without Bluetooth or /dev/uinput. The VM end-to-end tests run the real thing.
@Suite("run command", .serialized, .requires(BuiltBinary.exists, "the daydream-bridge binary is not built"))
struct RunCommandTests {
    static let configA = """
    [bridge]
    profile = "pad"
    [profile.pad]
    click = "BTN_SOUTH"
    [profile.keys]
    click = "KEY_ENTER"
    """
    static let configB = """
    [profile.pad]
    click = "BTN_SOUTH"
    [profile.arrows]
    click = "KEY_UP"
    """

    /// A temporary directory with a config and a recording in which the click goes down at 0.1 s and stays down.
    static func makeDirectory() throws -> TemporaryDirectory {
        let scratch = try TemporaryDirectory(prefix: "daydream-run")
        let directory = scratch.path
        try configA.save(toFile: directory + "/config.toml")
        let rest = Hex.encode(DaydreamPacket(acceleration: RawVector(0, 520, 0)).bytes)
        let click = Hex.encode(DaydreamPacket(sequence: 1, acceleration: RawVector(0, 520, 0), buttons: .click).bytes)
        let recording = "# daydream-bridge recording v1\naddress C0:DD:EE:00:00:01\n0.0 \(rest)\n0.1 \(click)\n"
        try recording.save(toFile: directory + "/held.recording")
        return scratch
    }

    func start(_ directory: String, environment: [String: String] = [:]) throws -> RunningBinary {
        try RunningBinary(
            ["run", "--replay", directory + "/held.recording", "--print", "--socket", directory + "/control",
             "--config", directory + "/config.toml"],
            directory: directory, environment: environment
        )
    }

    @Test func systemdHearsReadyStatusReloadingAndStopping() throws {
        let scratch = try Self.makeDirectory()
        defer { withExtendedLifetime(scratch) {} }
        let directory = scratch.path
        let notify = try NotifySocket(directory: directory)
        let daemon = try start(directory, environment: ["NOTIFY_SOCKET": notify.path])
        let startup = try #require(notify.receive(until: "READY=1"))
        #expect(startup.last?.contains("STATUS=waiting for a controller (profile pad)") == true)
        let connected = try #require(notify.receive(until: "STATUS=C0:DD:EE:00:00:01: pad, connected"))
        #expect(!connected.isEmpty)
        daemon.signal(SIGHUP)
        let reload = try #require(notify.receive(until: "READY=1"))
        #expect(reload.first?.hasPrefix("RELOADING=1\n") == true)
        #expect(reload.first?.contains("MONOTONIC_USEC=") == true)
        daemon.signal(SIGTERM)
        #expect(notify.receive(until: "STOPPING=1") != nil)
        #expect(daemon.waitForExit() == 0)
    }

    func profileCommand(_ directory: String, _ arguments: [String]) throws -> BuiltBinary.Result {
        try BuiltBinary.run(["profile"] + arguments + ["--socket", directory + "/control"])
    }

    /// The daemon started on a fresh directory, once the held click is down.
    func startHeld(sourceLocation: SourceLocation = #_sourceLocation) throws -> (scratch: TemporaryDirectory, daemon: RunningBinary) {
        let scratch = try Self.makeDirectory()
        let daemon = try start(scratch.path)
        #expect(daemon.waitFor { daemon.stdout.contains("gamepad EV_KEY BTN_SOUTH 1") }, sourceLocation: sourceLocation)
        return (scratch, daemon)
    }

    /// The daemon started on a fresh directory, sent `signal` once the held click is down: it
    /// exits 0 (within `timeout` seconds).
    func stopWhileHeld(by signal: Int32, exitWithin timeout: TimeInterval = RunningBinary.backstop,
                       sourceLocation: SourceLocation = #_sourceLocation) throws -> (scratch: TemporaryDirectory, daemon: RunningBinary) {
        let (scratch, daemon) = try startHeld(sourceLocation: sourceLocation)
        daemon.signal(signal)
        #expect(daemon.waitForExit(timeout: timeout) == 0, sourceLocation: sourceLocation)
        return (scratch, daemon)
    }

    /// The daemon stops at SIGTERM, not when the replay ends: the held press is released and
    /// nothing more of the recording is played (the exit is waited for, not timed).
    @Test func sigtermReleasesEverythingAndExitsZero() throws {
        let (scratch, daemon) = try stopWhileHeld(by: SIGTERM)
        defer { withExtendedLifetime(scratch) {} }
        let directory = scratch.path
        let lines = daemon.stdout.split(separator: "\n").map { $0.split(separator: " ").dropFirst(2).joined(separator: " ") }
        #expect(lines == [
            "gamepad EV_KEY BTN_SOUTH 1", "gamepad EV_SYN SYN_REPORT 0",
            "gamepad EV_KEY BTN_SOUTH 0", "gamepad EV_SYN SYN_REPORT 0",
        ])
        #expect(daemon.stderr.contains("<6>SIGTERM: stopping\n"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/control"))
    }

    @Test func sigintDoesTheSame() throws {
        let (scratch, daemon) = try stopWhileHeld(by: SIGINT, exitWithin: 3)
        defer { withExtendedLifetime(scratch) {} }
        #expect(daemon.stdout.split(separator: "\n").suffix(2).map { $0.split(separator: " ").dropFirst(2).joined(separator: " ") }
            == ["gamepad EV_KEY BTN_SOUTH 0", "gamepad EV_SYN SYN_REPORT 0"])
        #expect(daemon.stderr.contains("<6>SIGINT: stopping\n"))
    }

    @Test func profilesSwitchBySocketAndSigusr1AndReloadKeepsTheOldConfigWhenBroken() throws {
        let (scratch, daemon) = try startHeld()
        defer { daemon.signal(SIGTERM); _ = daemon.waitForExit(); withExtendedLifetime(scratch) {} }
        let directory = scratch.path

        let status = try profileCommand(directory, [])
        #expect(status.status == 0)
        #expect(status.stdout == "C0:DD:EE:00:00:01: pad, connected\n")

        // Switching releases the held click first.
        let switched = try profileCommand(directory, ["keys"])
        #expect(switched.status == 0)
        #expect(switched.stdout == "C0:DD:EE:00:00:01: keys, connected\n")
        #expect(daemon.waitFor { daemon.stdout.contains("gamepad EV_KEY BTN_SOUTH 0") })

        let unknown = try profileCommand(directory, ["kees"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "Error: no profile 'kees'; profiles: pad, keys\n")

        daemon.signal(SIGUSR1)
        #expect(daemon.waitFor { (try? profileCommand(directory, []))?.stdout == "C0:DD:EE:00:00:01: pad, connected\n" })

        // A valid new config is taken at once (the watcher sees the file; SIGHUP would do the same).
        try Self.configB.save(toFile: directory + "/config.toml")
        #expect(daemon.waitFor { daemon.stderr.contains("config reloaded from") })
        #expect(try profileCommand(directory, ["arrows"]).status == 0)

        // A broken one is refused with its errors; the running config stays.
        try "[profile.pad]\nclick = \"BTN_SOTH\"\n".save(toFile: directory + "/config.toml")
        daemon.signal(SIGHUP)
        #expect(daemon.waitFor { daemon.stderr.contains("<4>the new config has errors, so the running one stays") })
        #expect(daemon.stderr.contains("<4>\(directory)/config.toml:2:9: error:"))
        #expect(try profileCommand(directory, ["arrows"]).status == 0)
        #expect(daemon.process.isRunning)
    }

    /// A FIFO put at the config path: SIGHUP opened it and waited for a writer, holding the whole
    /// loop (the control socket timed out; a click stayed held). Now it is refused at once.
    @Test func aFIFOAtTheConfigPathIsRefusedWithoutBlocking() throws {
        let (scratch, daemon) = try startHeld()
        defer { daemon.signal(SIGTERM); _ = daemon.waitForExit(); withExtendedLifetime(scratch) {} }
        let directory = scratch.path
        try #require(unlink(directory + "/config.toml") == 0 && mkfifo(directory + "/config.toml", 0o600) == 0)
        daemon.signal(SIGHUP)
        #expect(daemon.waitFor { daemon.stderr.contains("config.toml: it is a FIFO, not a regular file") })
        let status = try profileCommand(directory, [])
        #expect(status.status == 0)
        #expect(status.stdout == "C0:DD:EE:00:00:01: pad, connected\n")
    }

    /// `--write-events -`: raw `struct input_event`s (24 bytes on x86-64: time, type, code, value) on
    /// standard output, one frame per `write(2)`, as the uinput device would get them.
    @Test func writeEventsPutsRawInputEventFramesOnStandardOutput() throws {
        let scratch = try Self.makeDirectory()
        defer { withExtendedLifetime(scratch) {} }
        let directory = scratch.path
        let daemon = try RunningBinary(
            ["run", "--replay", directory + "/held.recording", "--write-events", "-", "--socket", "none",
             "--config", directory + "/config.toml"],
            directory: directory
        )
        func events() -> [[Int]] {
            let data = (try? Data(contentsOf: URL(fileURLWithPath: daemon.stdoutPath))) ?? Data()
            return stride(from: 0, to: data.count - data.count % 24, by: 24).map { offset in
                let type = Int(data[offset + 16]) | Int(data[offset + 17]) << 8
                let code = Int(data[offset + 18]) | Int(data[offset + 19]) << 8
                let value = data[offset + 20..<offset + 24].reversed().reduce(0) { $0 << 8 | Int($1) }
                return [type, code, value]
            }
        }
        #expect(daemon.waitFor { events().count >= 2 })
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit(timeout: 3) == 0)
        // EV_KEY (1) BTN_SOUTH (0x130) down, SYN_REPORT; then the release on exit.
        #expect(events() == [[1, 0x130, 1], [0, 0, 0], [1, 0x130, 0], [0, 0, 0]])
        #expect(daemon.stderr.contains("as raw input_event frames on a file descriptor"))
    }

    @Test func printAndWriteEventsTogetherIsAUsageError() throws {
        let result = try BuiltBinary.run(["run", "--print", "--write-events", "-"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: choose one of --print and --write-events\n"))
    }

    @Test func profileWithoutADaemonSaysHowToStartOne() throws {
        let result = try BuiltBinary.run(["profile", "pad", "--socket", "/nonexistent/control"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: no daydream-bridge daemon is running (no control socket at /nonexistent/control); start it with"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/dev/uinput"), "this machine has /dev/uinput"))
    func withoutUinputRunSaysToLoadTheModule() throws {
        let result = try BuiltBinary.run(["run", "--socket", "none"])
        #expect(result.status == 1)
        #expect(result.stderr == "<3>/dev/uinput is missing: load the module with 'sudo modprobe uinput' "
            + "(and install the udev/ and modules-load.d files, see README)\n")
        // With no command at all it is the same: run is the default.
        #expect(try BuiltBinary.run(["--socket", "none"]).stderr == result.stderr)
    }

    @Test func aBrokenConfigExitsTwoWithEveryError() throws {
        let scratch = try Self.makeDirectory()
        defer { withExtendedLifetime(scratch) {} }
        let directory = scratch.path
        try "[profile.pad]\nclick = \"BTN_SOTH\"\n".save(toFile: directory + "/config.toml")
        let result = try BuiltBinary.run(["run", "--config", directory + "/config.toml", "--socket", "none"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("<3>\(directory)/config.toml:2:9: error:"))
    }

    @Test func anUnknownProfileIsAUsageError() throws {
        let scratch = try Self.makeDirectory()
        defer { withExtendedLifetime(scratch) {} }
        let directory = scratch.path
        let result = try BuiltBinary.run(["run", "--config", directory + "/config.toml", "--profile", "nope", "--socket", "none"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: \(directory)/config.toml has no profile 'nope'; its profiles: pad, keys\nUsage: daydream-bridge run "))
    }
}
