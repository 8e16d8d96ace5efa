import DSU
import DSUServer
import EventLoop
import Foundation
import Timebase

/// Instructions per packet on the daemon's path for one profile, counted by callgrind.
struct InstructionCount {
    var profile: String
    var perPacket: Double
}

/// `--only NAME --packets N`: `count` packets of the stream through the pipeline of `profile`,
/// untimed, the loop's due-timer check included; returns the events encoded. With `dsu`
/// (`--dsu`), a DSU server's slot follows the feed too, attached after the session as the daemon
/// attaches it, with no client subscribed: the slot's own work on each packet the feed decoded.
@MainActor
func runPackets(_ profile: BenchProfile, stream: PacketStream, count: Int, dsu: Bool = false) throws -> Int {
    let scheduler = ManualScheduler()
    let output = EncodingOutput()
    let pipeline = Pipeline(profile, output: output, scheduler: scheduler)
    // The reactor only gives the server its socket's watch: it never runs here.
    let reactor = dsu ? try Reactor() : nil
    let server = try reactor.map { try DSUServer(listeningOn: DSUListenAddress(octets: [127, 0, 0, 1], port: 0), reactor: $0) }
    server?.attach(pipeline.feed)
    defer { withExtendedLifetime((reactor, server)) {} }
    var virtualTime: Int64 = 1_000_000_000
    stream.bytes.withUnsafeBytes { all in
        for index in 0..<count {
            virtualTime += stream.intervalNanoseconds
            let time = MonotonicTime(nanoseconds: virtualTime)
            scheduler.advance(to: time)
            pipeline.process(packet(all, index % stream.count), at: time)
        }
    }
    return output.totalEvents
}

/// Counts instructions with valgrind's callgrind, which is deterministic: each profile runs
/// twice in a copy of this program made with `strip --strip-debug` (callgrind cannot read the
/// statically linked runtime's debug info; the symbols stay), once with `long` packets and once
/// with `short`, and the difference of the two totals over the difference of the packets is
/// the figure, so start-up (the stream, the configs) cancels out. With `dsu`, a DSU server's
/// slot follows each feed too (see `runPackets`). With `family` "gear-vr", the packets are a Gear
/// VR's, three IMU samples each (see `runGearVRPackets`).
enum Callgrind {
    static let long = 24_000
    static let short = 4_000

    static func measure(
        profiles: [String], configDirectory: String, dsu: Bool = false, family: String? = nil
    ) throws -> [InstructionCount] {
        let setup = try prepare(Bundle.main.executablePath ?? CommandLine.arguments[0], what: "instructions per packet")
        defer { try? FileManager.default.removeItem(atPath: setup.directory) }
        let (valgrind, directory, copy) = (setup.valgrind, setup.directory, setup.copy)
        return try profiles.map { profile in
            func total(_ packets: Int) throws -> Int {
                let output = "\(directory)/callgrind.\(packets).out"
                try run(valgrind, ["--tool=callgrind", "--quiet", "--callgrind-out-file=\(output)",
                                   copy, "--config-dir", configDirectory, "--only", profile, "--packets", String(packets)]
                                  + (dsu ? ["--dsu"] : []) + (family.map { ["--family", $0] } ?? []))
                return try instructions(in: output)
            }
            let difference = try total(long) - total(short)
            return InstructionCount(profile: profile, perPacket: Double(difference) / Double(long - short))
        }
    }

    /// valgrind's path, and a copy of `program` made with `strip --strip-debug` in a new temporary
    /// directory (the caller removes it); `what` names the figure in the error when a tool is missing.
    static func prepare(_ program: String, what: String) throws -> (valgrind: String, directory: String, copy: String) {
        guard let valgrind = executable("valgrind") else {
            throw BenchError("valgrind is missing (apt-get install valgrind); \(what) not counted")
        }
        guard let strip = executable("strip") else {
            throw BenchError("strip is missing (apt-get install binutils); \(what) not counted")
        }
        let name = (program as NSString).lastPathComponent
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-callgrind-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let copy = directory + "/" + name
        do {
            try FileManager.default.copyItem(atPath: program, toPath: copy)
            try run(strip, ["--strip-debug", copy])
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
        return (valgrind, directory, copy)
    }

    /// The total `Ir` of a callgrind output file (its `totals:` or `summary:` line).
    static func instructions(in path: String) throws -> Int {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for line in text.split(separator: "\n") where line.hasPrefix("totals:") || line.hasPrefix("summary:") {
            if let value = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) { return value }
        }
        throw BenchError("no instruction total in \(path)")
    }

    static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func run(_ program: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("\((program as NSString).lastPathComponent) \(arguments.first ?? "") exited \(process.terminationStatus)")
        }
    }
}
