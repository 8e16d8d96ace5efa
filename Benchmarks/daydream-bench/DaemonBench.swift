import Foundation

/// What the daemon cost while serving emulated controllers.
struct DaemonResult {
    /// What ran: the real daemon, or a stand-in, and how the controllers were fed.
    var what: String
    var loadSeconds: Double
    var cpuPercent: Double
    var peakRSSMegabytes: Double
    /// The anonymous (private heap and stack) part of the RSS at the end of the load.
    var anonymousRSSMegabytes: Double
    var idleSeconds: Double
    var idleWakeupsPerSecond: Double
}

/// Runs `Benchmarks/daemon-load/daemon_load.py bench` (the real daemon, 4 emulated controllers
/// behind the fake bluetoothd on a private bus) and reads its JSON figures.
func measureDaemon(bridge: String, script: String, loadSeconds: Int, idleSeconds: Int) throws -> DaemonResult {
    guard FileManager.default.isExecutableFile(atPath: bridge) else {
        throw BenchError("no daemon binary at \(bridge)")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [script, "--bridge", bridge, "bench",
                         "--load-seconds", String(loadSeconds), "--idle-seconds", String(idleSeconds)]
    let output = Pipe()
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
        throw BenchError("the daemon rig printed no figures (exit \(process.terminationStatus))")
    }
    if let error = object["error"] as? String { throw BenchError(error) }
    if let reason = object["skipped"] as? String { throw BenchError(reason) }
    func number(_ key: String) throws -> Double {
        guard let value = object[key] as? Double ?? (object[key] as? Int).map(Double.init) else {
            throw BenchError("the daemon rig's figures have no \(key)")
        }
        return value
    }
    return DaemonResult(
        what: "daydream-bridge run --print > /dev/null, fake bluetoothd on a private bus, AcquireNotify socketpairs",
        loadSeconds: try number("load_seconds"), cpuPercent: try number("cpu_percent"),
        peakRSSMegabytes: try number("peak_rss_mb"), anonymousRSSMegabytes: try number("rss_anon_mb"), idleSeconds: try number("idle_seconds"),
        idleWakeupsPerSecond: try number("idle_wakeups_per_s"))
}
