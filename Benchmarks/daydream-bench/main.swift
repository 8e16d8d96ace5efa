// daydream-bench: the figures `make bench` prints and writes to .build/bench.json.
// Benchmarks print figures; they never fail on timing.
import Foundation

let usage = """
    Usage: daydream-bench [--quick] [--json PATH] [--config-dir DIR]
      --quick           fewer packets (a smoke run; figures are noisier)
      --json PATH       where to write the JSON figures (default .build/bench.json)
      --config-dir DIR  the shipped configs whose profiles are measured (default config)
      --only NAME       only the pipeline of the profile NAME, one pass, no table
                        (for valgrind --tool=callgrind)
      --packets N       with --only: just N packets through it, untimed (what the
                        instruction count runs under callgrind)
      --dsu             with --only and --packets: a DSU server's slot follows the feed too
      --family gear-vr  with --only and --packets: Gear VR packets (three samples each)
      --no-callgrind    skip the instruction count (valgrind)
      --cold            only the cold rows (caches and TLBs evicted before each packet)
      --dsu-only        only the DSU latency rows (after one untimed pass to find the
                        busiest profile); writes no JSON
      --uhid-flood      only the DualSense output-report flood (34 000 reports in 4 s);
                        writes no JSON
      --rounds N        rounds of the daemon load and its two floors, run in turns
                        (default 3, 1 with --quick); the table gives their medians
      --loop-floor FD...
                        the daemon bench's floor: read each socket FD with the
                        daemon's event loop, one 48-byte write per packet
                        (run by Benchmarks/daemon-load/daemon_load.py floor)
    """

var quick = false
var jsonPath = ".build/bench.json"
var configDirectory = "config"
var onlyProfile: String?
var coldOnly = false
var dsuOnly = false
var rounds: Int?
var onlyPackets: Int?
var withDSU = false
var gearVR = false
var countsInstructions = true
var arguments = CommandLine.arguments.dropFirst()
/// The value after `option`, or a usage error (exit 64) naming what it should be.
@MainActor func value(of option: String, being what: String) -> String {
    guard let value = arguments.popFirst() else {
        FileHandle.standardError.write(Data("Error: \(option) needs \(what)\n\(usage)\n".utf8))
        exit(64)
    }
    return value
}
while let argument = arguments.popFirst() {
    switch argument {
    case "--quick": quick = true
    case "--json": jsonPath = value(of: argument, being: "a path")
    case "--config-dir": configDirectory = value(of: argument, being: "a directory")
    case "--only": onlyProfile = value(of: argument, being: "a profile name")
    case "--cold": coldOnly = true
    case "--dsu-only": dsuOnly = true
    case "--uhid-flood":
        do {
            print(try measureUHIDFlood().lines.joined(separator: "\n"))
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("daydream-bench: \(error)\n".utf8))
            exit(1)
        }
    case "--no-callgrind": countsInstructions = false
    case "--dsu": withDSU = true
    case "--family":
        let name = value(of: argument, being: "a controller family")
        guard name == "gear-vr" || name == "daydream" else {
            FileHandle.standardError.write(Data("Error: --family takes daydream or gear-vr, not '\(name)'\n\(usage)\n".utf8))
            exit(64)
        }
        gearVR = name == "gear-vr"
    case "--packets":
        let text = value(of: argument, being: "a number of packets")
        guard let count = Int(text), count > 0 else {
            FileHandle.standardError.write(Data("Error: --packets needs a whole number above 0, not '\(text)'\n\(usage)\n".utf8))
            exit(64)
        }
        onlyPackets = count
    case "--rounds":
        let text = value(of: argument, being: "a number of rounds")
        guard let count = Int(text), count > 0 else {
            FileHandle.standardError.write(Data("Error: --rounds needs a whole number above 0, not '\(text)'\n\(usage)\n".utf8))
            exit(64)
        }
        rounds = count
    case "--loop-floor":
        let descriptors = arguments.compactMap { Int32($0) }
        guard !descriptors.isEmpty, descriptors.count == arguments.count else {
            FileHandle.standardError.write(Data("Error: --loop-floor needs file descriptor numbers\n\(usage)\n".utf8))
            exit(64)
        }
        do {
            try runLoopFloor(descriptors: descriptors)
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("daydream-bench: \(error)\n".utf8))
            exit(1)
        }
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        FileHandle.standardError.write(Data("Error: unknown argument '\(argument)'\n\(usage)\n".utf8))
        exit(64)
    }
}

let streamLength = 65_536
let passes = quick || coldOnly || dsuOnly ? (coldOnly || dsuOnly ? 1 : 2) : 16
// Not for --packets: the clock's cost is found by sorting timings, whose instruction count
// varies from run to run and would not cancel out of the instruction count.
let overhead = onlyPackets == nil ? timerOverheadNanoseconds() : 0
var report = BenchReport(
    machine: onlyPackets == nil ? machineDescription() : "", timerOverhead: overhead, packetsPerProfile: streamLength * passes)
let stream = PacketStream(count: streamLength)

let shipped = BenchProfiles.shipped(in: configDirectory)
report.notes += shipped.problems
if shipped.profiles.isEmpty { report.notes.append("no profiles found in \(configDirectory)/*.toml") }
let profiles = [BenchProfiles.decodeAndModel] + shipped.profiles + [BenchProfiles.everything]
if let onlyProfile {
    guard let profile = profiles.first(where: { $0.name == onlyProfile }) else {
        FileHandle.standardError.write(Data("Error: no profile '\(onlyProfile)'; there are: \(profiles.map(\.name).joined(separator: ", "))\n".utf8))
        exit(64)
    }
    if let onlyPackets, gearVR {
        let events = runGearVRPackets(profile, stream: GearVRPacketStream(count: 4_096), count: onlyPackets)
        print("\(profile.name), Gear VR: \(onlyPackets) packets, \(events) events")
        exit(0)
    }
    if let onlyPackets {
        do {
            let events = try runPackets(profile, stream: stream, count: onlyPackets, dsu: withDSU)
            print("\(profile.name)\(withDSU ? " with DSU" : ""): \(onlyPackets) packets, \(events) events")
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("Error: the DSU server: \(error)\n".utf8))
            exit(1)
        }
    }
    let result = measurePipeline(profile, stream: stream, passes: 1, overhead: overhead)
    print("\(profile.name): p50 \(result.perPacket.p50) ns, p99 \(result.perPacket.p99) ns")
    exit(0)
}
report.pipelines.append(measureDecode(stream: stream, passes: passes, overhead: overhead))
for profile in profiles {
    report.pipelines.append(measurePipeline(profile, stream: stream, passes: passes, overhead: overhead))
}
report.shippedProfiles = Set(shipped.profiles.map(\.name))

// The fd-to-write path runs the busiest shipped profile (most events per packet).
let busiest = zip(profiles, report.pipelines.dropFirst())
    .filter { pair in shipped.profiles.contains { $0.name == pair.0.name } }
    .max { $0.1.eventsPerPacket < $1.1.eventsPerPacket }?.0
/// The DSU rows: the fd-to-write path with a DSU server and one subscribed client.
@MainActor func measureDSU() {
    do {
        report.dsuLatency = try measureDSULatency(
            busiest ?? BenchProfiles.everything, stream: stream, count: quick ? 1_000 : 5_000, spacingNanoseconds: 1_000_000)
    } catch {
        report.dsuLatencyNote = "\(error)"
    }
}
if dsuOnly {
    measureDSU()
    print(report.dsuLines().joined(separator: "\n"))
    exit(0)
}
// Cold: the clock alone, the model alone, and the busiest profile.
report.coldPipelines = [nil, BenchProfiles.decodeAndModel, busiest ?? BenchProfiles.everything].map {
    measureColdPipeline($0, stream: stream, count: quick ? 200 : 2_000, evictionBytes: 64 << 20, overhead: overhead)
}
if coldOnly {
    print(report.coldTable())
    exit(0)
}
if countsInstructions {
    do {
        report.instructionCounts = try Callgrind.measure(profiles: shipped.profiles.map(\.name), configDirectory: configDirectory)
        report.busiestProfile = busiest?.name
        if let busiest {
            report.dsuInstructionCount = try Callgrind.measure(profiles: [busiest.name], configDirectory: configDirectory, dsu: true).first
            report.gearVRInstructionCount = try Callgrind.measure(
                profiles: [busiest.name], configDirectory: configDirectory, family: "gear-vr").first
            report.codeFootprint = try Callgrind.measureFootprint(profile: busiest.name, configDirectory: configDirectory)
        }
    } catch {
        report.instructionNote = "\(error)"
    }
} else {
    report.instructionNote = "skipped (--no-callgrind)"
}
do {
    let count = quick ? 1_000 : 5_000
    report.fdToWrite = try measureFdToWrite(
        busiest ?? BenchProfiles.everything, stream: stream, count: count, spacingNanoseconds: 1_000_000)
    report.fdToWriteFloor = try measureFdToWrite(
        BenchProfiles.everything, stream: stream, count: count, spacingNanoseconds: 1_000_000, floorOnly: true)
} catch {
    report.fdToWriteNote = "\(error)"
}
measureDSU()
do {
    report.uhidFlood = try measureUHIDFlood()
} catch {
    report.uhidFloodNote = "\(error)"
}

// The daemon and the C machine floor: next to this binary, as `make bench` builds them.
let binDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
let machineFloor = binDirectory + "/daydream-machine-floor"
do {
    report.fdToWriteMachineFloor = try measureMachineLatencyFloor(
        binary: machineFloor, count: quick ? 1_000 : 5_000, spacingNanoseconds: 1_000_000)
} catch {
    report.notes.append("machine floor (fd to write): \(error)")
}
if countsInstructions {
    do {
        report.daemonInstructionCount = try Callgrind.measureDaemon(
            bridge: binDirectory + "/daydream-bridge", script: "Benchmarks/daemon-load/daemon_load.py")
    } catch {
        report.daemonInstructionNote = "\(error)"
    }
} else {
    report.daemonInstructionNote = "skipped (--no-callgrind)"
}
report.load = LoadRounds.measure(
    rounds: rounds ?? (quick ? 1 : 3), bridge: binDirectory + "/daydream-bridge", loopStandIn: CommandLine.arguments[0],
    machineStandIn: machineFloor, script: "Benchmarks/daemon-load/daemon_load.py",
    loadSeconds: quick ? 5 : 30, idleSeconds: quick ? 3 : 10)

print(report.table())
do {
    try report.json().write(toFile: jsonPath, atomically: true, encoding: .utf8)
    print("\nWrote \(jsonPath)")
} catch {
    FileHandle.standardError.write(Data("daydream-bench: cannot write \(jsonPath): \(error)\n".utf8))
}
