import Foundation
import Glibc

/// A D-Bus client written elsewhere (`busctl`, `gdbus`) run against a test's bus, in the
/// background: the test keeps its own loop turning (its objects must answer) until `isRunning`
/// is false, or reads what a monitor printed so far. Output goes to files, so no pipe fills.
public final class BusClientTool {
    /// `/usr/bin/busctl` (systemd).
    public static let busctl = "/usr/bin/busctl"
    /// `/usr/bin/gdbus` (libglib2.0-bin).
    public static let gdbus = "/usr/bin/gdbus"

    /// Whether `busctl` and `gdbus` are installed.
    public static let available: Bool = {
        let found = [busctl, gdbus].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
        if !found { print("skipping the busctl/gdbus tests: install systemd and libglib2.0-bin") }
        return found
    }()

    private let process = Process()
    private let stdoutPath: String
    private let stderrPath: String
    private static let counter = Counter()

    /// Starts `tool` with `arguments`; its output goes to files in `directory`.
    public init(_ tool: String, _ arguments: [String], directory: String) throws {
        let number = Self.counter.next()
        stdoutPath = "\(directory)/tool-\(number).out"
        stderrPath = "\(directory)/tool-\(number).err"
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        try process.run()
    }

    /// Whether it is still running.
    public var isRunning: Bool { process.isRunning }
    /// Its exit status, once it exited.
    public var status: Int32 { process.terminationStatus }
    /// What it printed on standard output so far.
    public var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    /// What it printed on standard error so far.
    public var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Waits for it to exit (when no loop of the test's must answer meanwhile); its status.
    @discardableResult
    public func waitForExit() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Stops it (a monitor runs until told). SIGKILL: a child inherits the blocked signal mask
    /// of a test whose loop takes SIGTERM through a signalfd, so SIGTERM would never reach it.
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func next() -> Int {
            lock.lock()
            defer { lock.unlock() }
            value += 1
            return value
        }
    }
}
