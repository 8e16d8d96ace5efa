import Foundation

/// Instructions per packet in the daemon itself: `daydream-bridge run --write-events -` under the
/// daemon load (4 controllers at 100 Hz, `Benchmarks/daemon-load/soak.toml`'s stick), counted by
/// callgrind. Unlike the per-profile count, which runs the session on the benchmark's stand-ins for
/// the loop and the devices, this has the real event loop, notification stream and frame writer.
struct DaemonInstructionCount {
    var perPacket: Double
    var packets: Double
}

extension Callgrind {
    static let daemonShortSeconds = 5
    static let daemonLongSeconds = 25

    /// Two loads of the daemon under callgrind, `daemonShortSeconds` and `daemonLongSeconds`
    /// long, in a copy of `bridge` made with `strip --strip-debug`; the difference of the totals
    /// over the difference of the packets fed, so start-up, pairing and shut-down cancel out.
    static func measureDaemon(bridge: String, script: String) throws -> DaemonInstructionCount {
        let setup = try prepare(bridge, what: "the daemon's instructions")
        defer { try? FileManager.default.removeItem(atPath: setup.directory) }
        let (valgrind, directory, copy) = (setup.valgrind, setup.directory, setup.copy)
        func total(seconds: Int) throws -> (instructions: Int, packets: Double) {
            let output = "\(directory)/callgrind.\(seconds).out"
            // The rig starts the program it is given with the daemon's arguments: a wrapper
            // that runs the copy under callgrind.
            let wrapper = "\(directory)/bridge-under-callgrind-\(seconds)"
            let text = "#!/bin/sh\nexec '\(valgrind)' --tool=callgrind --quiet --callgrind-out-file='\(output)' '\(copy)' \"$@\"\n"
            try text.write(toFile: wrapper, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper)
            let figures = try PrintedFigures(daemonRig: script, arguments: [
                "--bridge", wrapper, "bench", "--load-seconds", String(seconds), "--idle-seconds", "1", "--sink", "pipe",
            ])
            let packets = try figures.number("packets_per_second") * figures.number("load_seconds")
            return (try instructions(in: output), packets)
        }
        let short = try total(seconds: daemonShortSeconds)
        let long = try total(seconds: daemonLongSeconds)
        let packets = long.packets - short.packets
        guard packets > 0 else { throw BenchError("the daemon's two loads fed the same number of packets") }
        return DaemonInstructionCount(perPacket: Double(long.instructions - short.instructions) / packets, packets: packets)
    }
}
