import Foundation

/// What the daemon cost while serving emulated controllers.
struct DaemonResult {
    /// What ran: the real daemon, or a stand-in, and how the controllers were fed.
    var what: String
    var loadSeconds: Double
    var cpuPercent: Double
    /// CPU time per packet under load, all of it (user and kernel).
    var cpuMicrosecondsPerPacket: Double
    /// Context switches per packet under load: each is one sleep in `epoll_wait` and one wake-up.
    var wakeupsPerPacket: Double
    var peakRSSMegabytes: Double
    /// The anonymous (private heap and stack) part of the RSS at the end of the load.
    var anonymousRSSMegabytes: Double
    var idleSeconds: Double
    var idleWakeupsPerSecond: Double
    /// What the daemon wrote its events to: "pipe" (raw input_event frames) or "print" (text lines).
    var sink: String
}

/// The same load through `daydream-bench --loop-floor`: the event loop reading each packet and
/// writing one frame, with no bridge code (or `daydream-machine-floor`, the same in plain C).
struct LoopFloorResult {
    var cpuPercent: Double
    var cpuMicrosecondsPerPacket: Double
    var wakeupsPerPacket: Double
}

/// Runs `Benchmarks/daemon-load/daemon_load.py bench` (the real daemon, 4 emulated controllers
/// behind the fake bluetoothd on a private bus) and reads its JSON figures.
///
/// `sink` is what the daemon writes to in place of uinput, which this machine may not have:
/// "pipe" (`run --write-events -`: each device frame checked as uinput devices check it and
/// written as raw `input_event`s, one `write(2)` per frame, into a pipe) is the daemon's uinput
/// work; "print" (`run --print`) adds text formatting that a uinput sink does not pay.
func measureDaemon(bridge: String, script: String, loadSeconds: Int, idleSeconds: Int, sink: String = "pipe") throws -> DaemonResult {
    guard FileManager.default.isExecutableFile(atPath: bridge) else {
        throw BenchError("no daemon binary at \(bridge)")
    }
    let figures = try PrintedFigures(daemonRig: script, arguments: [
        "--bridge", bridge, "bench", "--load-seconds", String(loadSeconds), "--idle-seconds", String(idleSeconds), "--sink", sink,
    ])
    let sinkDescription = sink == "pipe"
        ? "run --write-events - into a pipe: raw input_event frames, one write(2) each, as to uinput"
        : "run --print into a pipe: one text line per event"
    return DaemonResult(
        what: "daydream-bridge \(sinkDescription); fake bluetoothd on a private bus, AcquireNotify socketpairs",
        loadSeconds: try figures.number("load_seconds"), cpuPercent: try figures.number("cpu_percent"),
        cpuMicrosecondsPerPacket: try figures.number("cpu_us_per_packet"), wakeupsPerPacket: try figures.number("wakeups_per_packet"),
        peakRSSMegabytes: try figures.number("peak_rss_mb"), anonymousRSSMegabytes: try figures.number("rss_anon_mb"),
        idleSeconds: try figures.number("idle_seconds"), idleWakeupsPerSecond: try figures.number("idle_wakeups_per_s"),
        sink: figures.text("sink") ?? sink)
}

/// Runs `daemon_load.py floor`: the same feed into `standIn --loop-floor FD...` (this program,
/// with the daemon's event loop; or `daydream-machine-floor`, the same work in plain C).
func measureLoopFloor(standIn: String, script: String, loadSeconds: Int) throws -> LoopFloorResult {
    guard FileManager.default.isExecutableFile(atPath: standIn) else {
        throw BenchError("no stand-in binary at \(standIn)")
    }
    let figures = try PrintedFigures(daemonRig: script, arguments: [
        "--bridge", standIn, "floor", "--load-seconds", String(loadSeconds),
    ])
    return LoopFloorResult(
        cpuPercent: try figures.number("cpu_percent"), cpuMicrosecondsPerPacket: try figures.number("cpu_us_per_packet"),
        wakeupsPerPacket: try figures.number("wakeups_per_packet"))
}

/// `daydream-machine-floor --latency`: the fd-to-write path in plain C (a sender thread, a
/// socketpair, `epoll_wait`, `read`, one `write` into a drained pipe), in microseconds.
struct MachineLatencyFloor {
    var p50: Double
    var p99: Double
    var p999: Double
    var max: Double
}

/// Runs `daydream-machine-floor --latency COUNT SPACING` and reads its figures.
func measureMachineLatencyFloor(binary: String, count: Int, spacingNanoseconds: Int64) throws -> MachineLatencyFloor {
    guard FileManager.default.isExecutableFile(atPath: binary) else {
        throw BenchError("no machine-floor binary at \(binary)")
    }
    let figures = try PrintedFigures(
        program: binary, arguments: ["--latency", String(count), String(spacingNanoseconds)],
        name: "daydream-machine-floor --latency")
    return MachineLatencyFloor(
        p50: try figures.number("p50_us"), p99: try figures.number("p99_us"),
        p999: try figures.number("p999_us"), max: try figures.number("max_us"))
}

/// The one JSON object a measuring program prints on standard output (`daemon_load.py`,
/// `daydream-machine-floor`), or the error or skip it reports in it.
struct PrintedFigures {
    private let object: [String: Any]
    private let name: String

    /// Runs `program` with `arguments` and reads what it printed; `name` names it in errors.
    init(program: String, arguments: [String], name: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw BenchError("\(name) printed no figures (exit \(process.terminationStatus))")
        }
        if let error = object["error"] as? String { throw BenchError(error) }
        self.object = object
        self.name = name
    }

    /// Runs `Benchmarks/daemon-load/daemon_load.py` (`script`) with `arguments`.
    init(daemonRig script: String, arguments: [String]) throws {
        try self.init(program: "/usr/bin/python3", arguments: [script] + arguments, name: "the daemon rig")
    }

    func number(_ key: String) throws -> Double {
        guard let value = object[key] as? Double ?? (object[key] as? Int).map(Double.init) else {
            throw BenchError("the figures of \(name) have no \(key)")
        }
        return value
    }

    func text(_ key: String) -> String? { object[key] as? String }
}
