import Foundation

/// Runs the built `daydream-bridge` (next to the test bundle in the build
/// directory, or `$DAYDREAM_BRIDGE_BINARY`) and captures what it prints.
public struct BuiltBinary {
    /// How a run ended and what it printed.
    public struct Result {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        /// The non-empty lines of `stdout`.
        public var stdoutLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
    }

    /// Where the binary is.
    public static var url: URL {
        if let path = ProcessInfo.processInfo.environment["DAYDREAM_BRIDGE_BINARY"] {
            return URL(fileURLWithPath: path)
        }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // On Linux the test runner is `<bin>/daydream-bridgePackageTests.xctest`.
        if directory.lastPathComponent.hasSuffix(".xctest") { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent("daydream-bridge")
    }

    /// True when the binary is built.
    public static var exists: Bool { FileManager.default.isExecutableFile(atPath: url.path) }

    /// Runs the binary with `arguments` (standard input empty) and waits for its exit; with a
    /// `wrapper` (a program and its arguments), runs that with the binary's path and `arguments` after it.
    public static func run(_ arguments: [String], environment: [String: String] = [:], wrapper: [String] = []) throws -> Result {
        let process = Process()
        process.executableURL = wrapper.first.map { URL(fileURLWithPath: $0) } ?? url
        process.arguments = wrapper.isEmpty ? arguments : Array(wrapper.dropFirst()) + [url.path] + arguments
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Drain stderr on another thread while stdout is read, so neither pipe fills and blocks the child.
        let stderrBox = DataBox()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            stderrBox.data = err.fileHandleForReading.readDataToEndOfFile()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        let stderrData = stderrBox.data
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self)
        )
    }
}

/// Carries the stderr bytes out of the reader thread; `DispatchGroup.wait` orders the access.
private final class DataBox: @unchecked Sendable {
    var data = Data()
}
