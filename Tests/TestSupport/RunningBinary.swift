import Foundation

/// The built `daydream-bridge` running in the background, its output going to files the test reads
/// while it runs.
public final class RunningBinary {
    /// The running process.
    public let process = Process()
    /// The file its standard output goes to.
    public let stdoutPath: String
    /// The file its standard error goes to.
    public let stderrPath: String

    /// Runs the binary with `arguments`; with `descriptorLimit`, under that `RLIMIT_NOFILE` (set by
    /// a shell that then execs the binary, so the process is still the binary's).
    public init(_ arguments: [String], directory: String, environment: [String: String] = [:], descriptorLimit: Int? = nil) throws {
        stdoutPath = directory + "/stdout"
        stderrPath = directory + "/stderr"
        try? Data().write(to: URL(fileURLWithPath: stdoutPath))
        try? Data().write(to: URL(fileURLWithPath: stderrPath))
        if let descriptorLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(descriptorLimit) && exec \"$0\" \"$@\"", BuiltBinary.url.path] + arguments
        } else {
            process.executableURL = BuiltBinary.url
            process.arguments = arguments
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        try process.run()
    }

    /// What it printed so far on standard output.
    public var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    /// What it printed so far on standard error.
    public var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Waits up to `timeout` seconds for `condition`; true when it held.
    public func waitFor(timeout: TimeInterval = 5, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition()
    }

    /// Sends it signal `number`.
    public func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for the exit; the status, or nil when it did not exit within `timeout` seconds (then it is killed).
    public func waitForExit(timeout: TimeInterval = 5) -> Int32? {
        guard waitFor(timeout: timeout, { !process.isRunning }) else {
            signal(SIGKILL)
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            signal(SIGKILL)
            process.waitUntilExit()
        }
    }
}
