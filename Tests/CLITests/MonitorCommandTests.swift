import Foundation
import TestSupport
import Testing

/// `monitor --replay` under tmux: drawn in place, lit buttons, `q` and SIGTERM quit and restore the terminal.
@Suite("monitor under tmux", .serialized, .requires(BuiltBinary.exists && TmuxSession.available, "needs the built binary and tmux"))
struct MonitorCommandTests {
    /// The status, pid and mask files the shell lines write, removed after each test.
    let scratch: TemporaryDirectory

    init() throws {
        scratch = try TemporaryDirectory(prefix: "daydream-monitor")
    }

    static let recordings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Recordings")

    /// A shell line that runs the monitor on `recording` (a file in Tests/Recordings, or a path),
    /// then writes its exit status to `statusFile` and waits.
    func command(_ recording: String, statusFile: String, pidFile: String) -> String {
        let path = recording.hasPrefix("/") ? recording : Self.recordings.appendingPathComponent(recording).path
        return "sh -c 'echo $$ > \(pidFile); exec \(BuiltBinary.url.path) monitor --replay \(path)'; "
            + "echo $? > \(statusFile); sleep 30"
    }

    func temporaryPath(_ name: String) -> String {
        scratch.path(name)
    }

    func status(_ path: String, timeout: TimeInterval = 3) -> String? {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if let text = try? String(contentsOfFile: path, encoding: .utf8), text.hasSuffix("\n") {
                return text.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return nil
    }

    /// `disconnect.recording` played `factor` times slower: each state it shows lasts that much
    /// longer on screen, for a capture on a loaded machine to find it (at its own speed the
    /// held state lasts 0.4 s, and a monitor slow to draw its first frame skipped it).
    func slowed(_ recording: String, by factor: Double) throws -> String {
        let text = try String(contentsOf: Self.recordings.appendingPathComponent(recording), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let words = line.split(separator: " ", maxSplits: 1)
            guard words.count == 2, let time = Double(words[0]) else { return String(line) }
            return String(format: "%.6f", time * factor) + " " + words[1]
        }
        let path = temporaryPath("slowed-" + recording)
        try lines.joined(separator: "\n").save(toFile: path)
        return path
    }

    @Test func drawsTheRecordingLiveAndQuitsOnQ() throws {
        let statusFile = temporaryPath("status")
        let recording = try slowed("disconnect.recording", by: 5)
        let session = try TmuxSession(command: command(recording, statusFile: statusFile, pidFile: temporaryPath("pid")))
        defer { session.kill() }
        // 0.5-2.5 s (0.1-0.5 s recorded): click and volume-up held, the finger at the top; the rim shows the click.
        let held = try session.waitFor { $0.contains("[CLICK]") && $0.contains("[VOL+]") }
        let heldText = try #require(held)
        #expect(heldText.contains("daydream-bridge monitor  C0:DD:EE:00:00:01  connected"))
        #expect(heldText.contains("*****"))
        #expect(heldText.contains("●"))
        #expect(try session.paneVariable("alternate_on") == "1")
        // 2.5 s (0.5 s recorded): the link drops, every button shows released.
        let dropped = try #require(try session.waitFor { $0.contains("  disconnected  ") })
        #expect(!dropped.contains("[CLICK]"))
        // The end: the last state stays on screen with a note.
        let ended = try #require(try session.waitFor { $0.contains("end of the recording") })
        #expect(ended.contains("battery      89%"))
        #expect(ended.contains(" received  0 lost  0 malformed"))
        // Drawn in place: the title appears once.
        #expect(ended.components(separatedBy: "daydream-bridge monitor").count == 2)
        try session.sendKeys("q")
        #expect(status(statusFile) == "0")
        #expect(try session.paneVariable("alternate_on") == "0")
        #expect(try session.paneVariable("cursor_flag") == "1")
        #expect(try !session.capture().contains("daydream-bridge monitor"))
    }

    /// With a bridge running, `monitor` shows its controller through the bridge's `watch`
    /// stream instead of taking the controller from it: the replayed click lights up, the
    /// battery shows, and when the bridge stops the view says so.
    @Test func withABridgeRunningItWatchesThroughTheBridge() throws {
        let runtime = temporaryPath("runtime")
        try FileManager.default.createDirectory(atPath: runtime + "/daydream-bridge", withIntermediateDirectories: true)
        let recording = Self.recordings.appendingPathComponent("disconnect.recording").path
        let bridge = try RunningBinary(["run", "--replay", recording, "--print", "--socket", runtime + "/daydream-bridge/control"],
                                       directory: scratch.path)
        defer { bridge.signal(SIGTERM); _ = bridge.waitForExit() }
        #expect(bridge.waitFor { bridge.stderr.contains("running with") }, "\(bridge.stderr)")
        let statusFile = temporaryPath("status")
        let session = try TmuxSession(command: "XDG_RUNTIME_DIR=\(runtime) \(BuiltBinary.url.path) monitor; echo $? > \(statusFile); sleep 30")
        defer { session.kill() }
        let shown = try #require(try session.waitFor { $0.contains("through the bridge") && $0.contains("C0:DD:EE:00:00:01") })
        #expect(shown.contains("daydream-bridge monitor"))
        bridge.signal(SIGTERM)
        _ = bridge.waitForExit()
        #expect(try session.waitFor { $0.contains("the bridge stopped") } != nil)
        try session.sendKeys("q")
        #expect(status(statusFile) == "0")
    }

    @Test func sigtermRestoresTheTerminalAndExitsZero() throws {
        let statusFile = temporaryPath("status")
        let pidFile = temporaryPath("pid")
        let session = try TmuxSession(command: command("buttons.recording", statusFile: statusFile, pidFile: pidFile))
        defer { session.kill() }
        _ = try #require(try session.waitFor { $0.contains("received") })
        let pidText = try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let pid = try #require(Int32(pidText))
        #expect(Foundation.kill(pid, SIGTERM) == 0)
        #expect(status(statusFile) == "0")
        #expect(try session.paneVariable("alternate_on") == "0")
        #expect(try session.paneVariable("cursor_flag") == "1")
    }

    /// The tmux server outlives every call and keeps what it inherits: it must get no descriptor of
    /// the test process (tests running in parallel wait for their pipes to reach their end) and no
    /// blocked signal (the calling thread may block them all), which its panes would inherit.
    @Test func tmuxGetsNoDescriptorAndNoBlockedSignalFromTheTests() throws {
        let pipe = try TestPipe(inheritable: true)  // as Foundation's Pipe makes them
        defer { withExtendedLifetime(pipe) {} }
        let pipeName = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(pipe.writeEnd)")
        let maskFile = temporaryPath("mask")
        defer { unlink(maskFile) }
        let session = try TmuxSession(command: "grep SigBlk /proc/self/status > \(maskFile); sleep 30")
        defer { session.kill() }
        let server = try session.tmux(["display-message", "-p", "#{pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(server)/fd")
        let held = descriptors.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(server)/fd/\($0)")) == pipeName }
        #expect(!descriptors.isEmpty)
        #expect(held.isEmpty, "the tmux server holds the test's \(pipeName) as fds \(held)")
        #expect(status(maskFile) == "SigBlk:\t0000000000000000")
    }

    @Test func refusesToRunWithoutATerminal() throws {
        let result = try BuiltBinary.run(["monitor", "--replay", Self.recordings.appendingPathComponent("buttons.recording").path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: monitor draws on a terminal"))
        #expect(result.stdout.isEmpty)
    }
}
