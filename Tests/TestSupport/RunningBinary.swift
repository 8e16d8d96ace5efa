import Foundation

/// The built `daydream-bridge` running in the background, its output going to files the test reads
/// while it runs.
public final class RunningBinary {
    /// How long a wait with no timeout of its own lasts before it gives up: only a hang takes so long.
    public static let backstop: TimeInterval = 60

    /// The running process.
    public let process = Process()
    /// The file its standard output goes to.
    public let stdoutPath: String
    /// The file its standard error goes to.
    public let stderrPath: String

    /// Runs the binary with `arguments`; with `descriptorLimit`, under that `RLIMIT_NOFILE` (set by
    /// a shell that then execs the binary, so the process is still the binary's).
    public convenience init(_ arguments: [String], directory: String, environment: [String: String] = [:], descriptorLimit: Int? = nil) throws {
        try self.init(BuiltBinary.url.path, arguments, directory: directory, name: nil, environment: environment, descriptorLimit: descriptorLimit)
    }

    /// Starts another program, `executable`; its output goes to `NAME.stdout` and `NAME.stderr` in `directory`.
    public convenience init(program executable: String, _ arguments: [String], directory: String, name: String,
                            environment: [String: String] = [:]) throws {
        try self.init(executable, arguments, directory: directory, name: name, environment: environment, descriptorLimit: nil)
    }

    private init(_ executable: String, _ arguments: [String], directory: String, name: String?, environment: [String: String],
                 descriptorLimit: Int?) throws {
        let prefix = name.map { $0 + "." } ?? Self.unusedPrefix(in: directory)
        stdoutPath = directory + "/" + prefix + "stdout"
        stderrPath = directory + "/" + prefix + "stderr"
        try? Data().write(to: URL(fileURLWithPath: stdoutPath))
        try? Data().write(to: URL(fileURLWithPath: stderrPath))
        if let descriptorLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(descriptorLimit) && exec \"$0\" \"$@\"", executable] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        try process.run()
    }

    /// The built binary's files are `stdout` and `stderr`, or `N.stdout` and `N.stderr` (from 2)
    /// when an earlier run in `directory` has them: two runs never write over each other's output.
    private static func unusedPrefix(in directory: String) -> String {
        var number = 1
        while FileManager.default.fileExists(atPath: directory + "/" + (number == 1 ? "" : "\(number).") + "stdout") {
            number += 1
        }
        return number == 1 ? "" : "\(number)."
    }

    /// What it printed so far on standard output.
    public var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    /// What it printed so far on standard error.
    public var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Waits up to `timeout` seconds for `condition`; true when it held. The default is a
    /// backstop against a hang, not a wait: a loaded machine (the sanitizers, the desktop
    /// suites starting their servers side by side) once took over 5 s to start openbox.
    public func waitFor(timeout: TimeInterval = RunningBinary.backstop, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition()
    }

    /// Sends it signal `number`.
    public func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Its exit status once it has exited (the signal's number when a signal ended it), nil while
    /// it runs. Asked of the kernel when Foundation has not seen the exit yet, without reaping
    /// the child (`waitid` with `WNOWAIT`: Foundation still reaps it). Foundation alone once
    /// missed an exit (the ui tests under ThreadSanitizer, the suite in shards: the child a
    /// zombie, `isRunning` true for good), and a `waitUntilExit` then hung the whole run.
    public var exitStatus: Int32? {
        if !process.isRunning { return process.terminationStatus }
        var info = siginfo_t()
        guard waitid(P_PID, id_t(process.processIdentifier), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else {
            // ECHILD: Foundation's own thread has reaped it and is about to say so: wait for that
            // (a few milliseconds; 10 s at most, never the unbounded waitUntilExit).
            guard errno == ECHILD, waitFor(timeout: 10, { !process.isRunning }) else { return nil }
            return process.terminationStatus
        }
        guard info._sifields._sigchld.si_pid == process.processIdentifier else { return nil }
        return info._sifields._sigchld.si_status
    }

    /// Waits for the exit; the status, or nil when it did not exit within `timeout` seconds (then
    /// it is killed, and waited for 10 s more at most).
    public func waitForExit(timeout: TimeInterval = RunningBinary.backstop) -> Int32? {
        if waitFor(timeout: timeout, { exitStatus != nil }) { return exitStatus }
        signal(SIGKILL)
        _ = waitFor(timeout: 10) { exitStatus != nil }
        return nil
    }

    /// Kills it (SIGKILL: a child of the test process inherits its blocked SIGTERM) and waits,
    /// 10 s at most.
    public func stop() {
        guard exitStatus == nil else { return }
        signal(SIGKILL)
        _ = waitFor(timeout: 10) { exitStatus != nil }
    }

    deinit {
        stop()
    }
}
