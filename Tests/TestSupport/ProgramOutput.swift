import Foundation

/// Another program run to its exit for what it prints: `ldd`, `readelf`, python, a desktop's tools.
public enum ProgramOutput {
    /// Runs `tool` with `arguments` (standard input empty, `environment` added to the test's);
    /// its exit status and standard output. Its standard error goes to the test's own, or nowhere
    /// with `droppingErrors`.
    public static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:],
                           droppingErrors: Bool = false) throws -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        if droppingErrors { process.standardError = FileHandle.nullDevice }
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
