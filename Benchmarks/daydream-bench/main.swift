// daydream-bench: the figures `make bench` prints and writes to .build/bench.json.
// Benchmarks print figures; they never fail on timing.
import Foundation

let usage = """
    Usage: daydream-bench [--quick] [--json PATH]
      --quick      fewer packets (a smoke run; figures are noisier)
      --json PATH  where to write the JSON figures (default .build/bench.json)
    """

var quick = false
var jsonPath = ".build/bench.json"
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--quick": quick = true
    case "--json":
        guard let path = arguments.popFirst() else {
            FileHandle.standardError.write(Data("Error: --json needs a path\n\(usage)\n".utf8))
            exit(64)
        }
        jsonPath = path
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        FileHandle.standardError.write(Data("Error: unknown argument '\(argument)'\n\(usage)\n".utf8))
        exit(64)
    }
}

let streamLength = 65_536
let passes = quick ? 2 : 16
let overhead = timerOverheadNanoseconds()
var report = BenchReport(machine: machineDescription(), timerOverhead: overhead, packetsPerProfile: streamLength * passes)
let stream = PacketStream(count: streamLength)

for profile in [BenchProfiles.decodeAndModel, BenchProfiles.everything] {
    report.pipelines.append(measurePipeline(profile, stream: stream, passes: passes, overhead: overhead))
}

do {
    report.fdToWrite = try measureFdToWrite(
        BenchProfiles.everything, stream: stream, count: quick ? 1_000 : 5_000, spacingNanoseconds: 1_000_000)
} catch {
    report.fdToWriteNote = "\(error)"
}

report.daemonNote = "the daemon is not on main yet"

print(report.table())
do {
    try report.json().write(toFile: jsonPath, atomically: true, encoding: .utf8)
    print("\nWrote \(jsonPath)")
} catch {
    FileHandle.standardError.write(Data("daydream-bench: cannot write \(jsonPath): \(error)\n".utf8))
}
