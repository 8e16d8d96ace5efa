import Foundation
import Glibc

/// A private `dbus-daemon` for one test, on a unix socket in a fresh temporary
/// directory, stopped by `stop()` (the directory goes with it, or with the bus object), or
/// killed when the bus object goes: a test that throws before its `stop()` leaves none behind.
@MainActor
public final class TestBus {
    /// The directory of the bus's socket and configuration, for the test's own files too.
    nonisolated public let directory: URL
    /// The address `dbus-daemon` printed.
    nonisolated public let address: String
    /// The bus's socket without the server's GUID, which a restarted `dbus-daemon` changes: a
    /// client given this address can connect again after `restart()`.
    public var socketAddress: String { "unix:path=\(directory.path)/bus" }
    private var process: Process
    /// The running `dbus-daemon`'s process id.
    public var processIdentifier: Int32 { process.processIdentifier }
    private let config: URL
    private let scratch: TemporaryDirectory

    /// The policy that lets everyone own and call everything.
    public static let openPolicy = """
      <policy context="default">
        <allow user="*"/>
        <allow own="*"/>
        <allow send_type="method_call"/>
        <allow send_type="signal"/>
        <allow send_type="method_return"/>
        <allow send_type="error"/>
        <allow receive_type="method_call"/>
        <allow receive_type="signal"/>
        <allow receive_type="method_return"/>
        <allow receive_type="error"/>
      </policy>
    """

    /// Starts `dbus-daemon` in a fresh directory with `policy` (elements of `<busconfig>`: policies
    /// and includes; by default everyone may own and call everything). Its directory and socket
    /// can be reached by every user.
    public init(policy: String = TestBus.openPolicy) throws {
        scratch = try TemporaryDirectory(prefix: "daydream-bus")
        directory = URL(fileURLWithPath: scratch.path)
        config = directory.appendingPathComponent("bus.conf")
        _ = chmod(directory.path, 0o755)
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>custom</type>
          <listen>unix:path=\(directory.path)/bus</listen>
          <auth>EXTERNAL</auth>
        \(policy)
        </busconfig>
        """.save(to: config)
        (process, address) = try Self.launch(config: config)
    }

    isolated deinit { kill() }

    /// Starts `dbus-daemon` with `config`; returns it and the address it printed.
    private static func launch(config: URL) throws -> (Process, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = ["--config-file=\(config.path)", "--nofork", "--nopidfile", "--print-address"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw TestFailure("dbus-daemon exited before printing its address") }
            line.append(chunk)
        }
        return (process, String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Kills `dbus-daemon` (every client loses the bus), leaving the directory.
    public func kill() {
        if process.isRunning {
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// A new `dbus-daemon` on the same socket (`socketAddress`) after `kill()`.
    public func restart() throws {
        kill()
        (process, _) = try Self.launch(config: config)
    }

    /// Kills `dbus-daemon` and removes the directory.
    public func stop() {
        kill()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A test's own failure, with a sentence saying what went wrong.
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Whether this machine can run the D-Bus tests: `dbus-daemon`, and Debian's
/// python3 with python3-dbus and python3-gi (`scripts/install-deps --test`).
public enum TestEnvironment {
    /// True when `dbus-daemon`, python3, python3-dbus and python3-gi are installed.
    public static let canRunDBusTests: Bool = {
        let manager = FileManager.default
        let pythonPaths = ["/usr/lib/python3/dist-packages/dbus", "/usr/lib/python3/dist-packages/gi"]
        let ready = manager.isExecutableFile(atPath: "/usr/bin/dbus-daemon")
            && manager.isExecutableFile(atPath: "/usr/bin/python3")
            && pythonPaths.allSatisfy { manager.fileExists(atPath: $0) }
        if !ready {
            print("skipping the D-Bus tests: install dbus-daemon, python3-dbus and python3-gi "
                + "(scripts/install-deps --test)")
        }
        return ready
    }()
}
