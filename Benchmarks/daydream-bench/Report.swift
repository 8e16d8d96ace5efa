import Foundation

/// Everything one run measured; nil where a measurement could not run (with the reason).
struct BenchReport {
    var machine: String
    var timerOverhead: Int64
    var packetsPerProfile: Int
    var pipelines: [PipelineResult] = []
    /// One packet at a time with the caches and TLBs evicted first: the clock alone, the
    /// controller model alone, the busiest shipped profile.
    var coldPipelines: [ColdPipelineResult] = []
    var fdToWrite: FdToWriteResult?
    /// The same path with the bridge's code left out: what the machine costs.
    var fdToWriteFloor: FdToWriteResult?
    var fdToWriteNote: String?
    /// The same path with a DSU server and one subscribed client: each datagram's send next
    /// to its frame's write.
    var dsuLatency: DSULatencyResult?
    /// Why it was not measured.
    var dsuLatencyNote: String?
    /// A game's flood of output reports into the DualSense on `/dev/uhid`.
    var uhidFlood: UHIDFloodResult?
    /// Why it was not measured.
    var uhidFloodNote: String?
    /// The fd-to-write path in plain C (`daydream-machine-floor`): this machine's own floor.
    var fdToWriteMachineFloor: MachineLatencyFloor?
    /// The daemon under load, the bare event loop (the Swift loop's floor) and plain C
    /// (`daydream-machine-floor`), in rounds.
    var load = LoadRounds()
    /// Instructions per packet on the daemon's path, per shipped profile (callgrind).
    var instructionCounts: [InstructionCount] = []
    /// Why they were not counted.
    var instructionNote: String?
    /// The busiest shipped profile's count with a DSU server's slot on the feed too.
    var dsuInstructionCount: InstructionCount?
    /// The busiest shipped profile's count with Gear VR packets (60 bytes, three IMU samples each).
    var gearVRInstructionCount: InstructionCount?
    /// The code the busiest shipped profile's packets run through: cache lines and pages.
    var codeFootprint: CodeFootprint?
    /// The most instructions per packet the busiest profile may take, and with DSU on.
    static let instructionLimit = 1000
    static let dsuInstructionLimit = 1200
    /// Instructions per packet in the daemon itself, under the daemon load (callgrind).
    var daemonInstructionCount: DaemonInstructionCount?
    /// Why it was not counted.
    var daemonInstructionNote: String?
    /// The shipped profile with the most events per packet (the JSON's `instructions_per_packet`).
    var busiestProfile: String?
    /// The config whose costliest profile gives gyro aiming's figure (config/NAME.toml).
    static let gyroAimFile = "gyro-aim"
    /// The most instructions per packet gyro aiming may take.
    static let gyroAimLimit = 1200
    /// Anything that kept a measurement from being complete.
    var notes: [String] = []

    /// The names of the shipped profiles (config/*.toml) among `pipelines`.
    var shippedProfiles: Set<String> = []

    /// The shipped profile with the highest p99 (the JSON's `pipeline_*` figures).
    var worstPipeline: PipelineResult? {
        pipelines.filter { shippedProfiles.contains($0.profile) }.max { $0.perPacket.p99 < $1.perPacket.p99 }
    }

    /// The table `make bench` prints (README-ready).
    func table() -> String {
        var lines: [String] = []
        lines.append("daydream-bench (release build) on \(machine)")
        lines.append("")
        lines.append("Pipeline: decode + controller model + mapping + input_event encoding, ns per packet")
        lines.append("(\(packetsPerProfile) packets per profile, each timed with CLOCK_MONOTONIC, \(timerOverhead) ns clock cost subtracted;")
        lines.append(" batch64 = mean of batches of 64 packets timed together, no clock inside;")
        lines.append(" FILE.PROFILE rows are the shipped profiles of config/FILE.toml)")
        lines.append(row(["profile", "p50", "p99", "p99.9", "max", "batch64", "events/pkt"], widths: [28, 7, 7, 7, 9, 8, 10]))
        for result in pipelines {
            let d = result.perPacket
            lines.append(row([result.profile, int(d.p50), int(d.p99), int(d.p999), int(d.max), int(result.batchMean),
                              String(format: "%.2f", result.eventsPerPacket)], widths: [28, 7, 7, 7, 9, 8, 10]))
        }
        if !coldPipelines.isEmpty { lines.append(coldTable()) }
        lines.append("")
        lines.append(contentsOf: instructionLines())
        lines.append("")
        if let fd = fdToWrite {
            lines.append("fd to write (profile \(fd.profile); sink: \(fd.sink); loop: \(fd.loop)), µs;")
            lines.append("  \(fd.packetsWithOutput) of \(fd.packetsSent) packets, 1 ms apart, wrote events:")
            lines.append(String(format: "  p50 %.1f   p99 %.1f   p99.9 %.1f   max %.1f", fd.latency.p50, fd.latency.p99, fd.latency.p999, fd.latency.max))
            if let floor = fdToWriteFloor {
                lines.append(String(format: "  floor (same loop, read + one 48-byte write, no bridge code): p50 %.1f   p99 %.1f   p99.9 %.1f",
                                    floor.latency.p50, floor.latency.p99, floor.latency.p999))
            }
            if let machine = fdToWriteMachineFloor {
                lines.append(String(format: "  machine floor (the same in plain C: epoll_wait, read, write): p50 %.1f   p99 %.1f   p99.9 %.1f",
                                    machine.p50, machine.p99, machine.p999))
            }
        } else {
            lines.append("fd to write: not measured (\(fdToWriteNote ?? "?"))")
        }
        lines.append("")
        lines.append(contentsOf: dsuLines())
        lines.append("")
        lines.append(contentsOf: uhidFlood?.lines ?? ["DualSense output-report flood: not measured (\(uhidFloodNote ?? "?"))"])
        lines.append("")
        lines.append(contentsOf: loadLines())
        for note in notes { lines.append("Note: \(note)") }
        lines.append("")
        lines.append("Targets: instructions per packet <= 1000 (busiest profile), <= 1200 with DSU on and for gyro-aim.toml's costliest, pipeline p99 <= 2000 ns, fd to write p99 <= 50 µs, DSU datagram p99 <= 100 µs after the frame, <= 0.5 % of a core at 400 packets/s, RSS <= 15 MB, 0 wake-ups/s idle.")
        return lines.joined(separator: "\n")
    }

    /// The cold rows: p50 and p99 of each, in nanoseconds.
    func coldTable() -> String {
        guard let first = coldPipelines.first else { return "Cold: not measured" }
        var lines = ["Cold: \(first.packets) packets, each timed alone after a 64 MB walk evicts caches and TLBs, ns"]
        for cold in coldPipelines {
            lines.append(row([cold.profile, int(cold.perPacket.p50), int(cold.perPacket.p99)], widths: [28, 7, 7]))
        }
        return lines.joined(separator: "\n")
    }

    /// The busiest shipped profile's instruction count.
    var busiestInstructionCount: InstructionCount? {
        instructionCounts.first { $0.profile == busiestProfile }
    }

    /// Gyro aiming's figure (the JSON's `gyro_aim_instructions_per_packet`): the instruction count
    /// of config/gyro-aim.toml's costliest profile (the shooter's gyro to the mouse). Not the one
    /// with the most events: its profiles write as many events a packet.
    var gyroAimInstructionCount: InstructionCount? {
        instructionCounts.filter { $0.profile.hasPrefix(Self.gyroAimFile + ".") }.max { $0.perPacket < $1.perPacket }
    }

    /// The instruction counts, one row a profile, or why there are none.
    func instructionLines() -> [String] {
        var lines: [String] = []
        if instructionCounts.isEmpty {
            lines.append("Instructions per packet: not counted (\(instructionNote ?? "?"))")
        } else {
            lines.append("Instructions per packet on the daemon's path (feed, session: decode, engine, encoding; the loop's timer check),")
            lines.append(" callgrind, (\(Callgrind.long) packets - \(Callgrind.short)) / \(Callgrind.long - Callgrind.short):")
        }
        for count in instructionCounts {
            let marks = [count.profile == busiestProfile ? "busiest" : nil,
                         count.profile == gyroAimInstructionCount?.profile ? "gyro aiming, limit \(Self.gyroAimLimit)" : nil].compactMap { $0 }
            let mark = marks.isEmpty ? "" : "  (" + marks.joined(separator: "; ") + ")"
            lines.append(row([count.profile, String(Int(count.perPacket.rounded()))], widths: [28, 7]) + mark)
        }
        if let dsu = dsuInstructionCount {
            let perPacket = Int(dsu.perPacket.rounded())
            let verdict = perPacket <= Self.dsuInstructionLimit ? "within" : "OVER"
            lines.append("With DSU on (\(dsu.profile), a DSU slot on the feed beside the session, no client): "
                         + "\(perPacket) instructions per packet, \(verdict) the limit of \(Self.dsuInstructionLimit)")
        }
        if let gear = gearVRInstructionCount, let daydream = busiestInstructionCount {
            lines.append("Gear VR packets (\(gear.profile), 60 bytes, three IMU samples each, 68 a second): "
                         + "\(Int(gear.perPacket.rounded())) instructions per packet, "
                         + "\(Int((gear.perPacket / 3).rounded())) per sample; a Daydream packet: \(Int(daydream.perPacket.rounded()))")
        }
        if let footprint = codeFootprint {
            lines.append("Code footprint (\(footprint.profile), instructions run on at least 1 packet in \(Callgrind.footprintShare)): "
                         + "\(footprint.cacheLines) cache lines of 64 bytes, \(footprint.pages) pages of 4 KiB")
        }
        if !instructionCounts.isEmpty {
            if let gyro = gyroAimInstructionCount {
                let perPacket = Int(gyro.perPacket.rounded())
                let verdict = perPacket <= Self.gyroAimLimit ? "within" : "OVER"
                lines.append("Gyro aiming (config/\(Self.gyroAimFile).toml's costliest profile, \(gyro.profile)): \(perPacket) instructions per packet, "
                             + "\(verdict) the limit of \(Self.gyroAimLimit)")
            } else {
                lines.append("Gyro aiming: not counted (no profile of config/\(Self.gyroAimFile).toml was measured)")
            }
        }
        if let daemon = daemonInstructionCount {
            lines.append("Instructions per packet in the daemon itself (run --write-events - under the daemon load, soak.toml's stick;")
            lines.append(" its event loop, notification stream and frame writer included), callgrind,")
            lines.append(" (\(Callgrind.daemonLongSeconds) s load - \(Callgrind.daemonShortSeconds) s) / \(Int(daemon.packets)) packets: \(Int(daemon.perPacket.rounded()))")
        } else {
            lines.append("Instructions per packet in the daemon itself: not counted (\(daemonInstructionNote ?? "?"))")
        }
        return lines
    }

    /// `.build/bench.json`: the keys the issue names, null where not measured.
    func json() -> String {
        func number(_ value: Double?) -> String {
            guard let value, value.isFinite else { return "null" }
            return String(format: "%.3f", value)
        }
        let worst = worstPipeline?.perPacket
        let daemon = load.daemon.summary
        let fields: [(String, String)] = [
            ("pipeline_p50_ns", number(worst?.p50)),
            ("pipeline_p99_ns", number(worst?.p99)),
            ("pipeline_worst_profile", worstPipeline.map { "\"\($0.profile)\"" } ?? "null"),
            ("pipeline_cold_p50_ns", number(coldPipelines.last?.perPacket.p50)),
            ("instructions_per_packet", number(busiestInstructionCount?.perPacket)),
            ("instructions_per_packet_profile", busiestInstructionCount.map { "\"\($0.profile)\"" } ?? "null"),
            ("instructions_per_packet_dsu", number(dsuInstructionCount?.perPacket)),
            ("gear_vr_instructions_per_packet", number(gearVRInstructionCount?.perPacket)),
            ("code_cache_lines_per_packet", codeFootprint.map { String($0.cacheLines) } ?? "null"),
            ("code_pages_per_packet", codeFootprint.map { String($0.pages) } ?? "null"),
            ("gyro_aim_instructions_per_packet", number(gyroAimInstructionCount?.perPacket)),
            ("gyro_aim_instructions_per_packet_profile", gyroAimInstructionCount.map { "\"\($0.profile)\"" } ?? "null"),
            ("daemon_instructions_per_packet", number(daemonInstructionCount?.perPacket)),
            ("fd_to_write_p50_us", number(fdToWrite?.latency.p50)),
            ("fd_to_write_p99_us", number(fdToWrite?.latency.p99)),
            ("fd_to_write_p99_us_machine_floor", number(fdToWriteMachineFloor?.p99)),
            ("dsu_after_frame_us_p50", number(dsuLatency?.datagramAfterFrame.p50)),
            ("dsu_after_frame_us_p99", number(dsuLatency?.datagramAfterFrame.p99)),
            ("dsu_after_frame_us_max", number(dsuLatency?.datagramAfterFrame.max)),
            ("dsu_after_read_us_p50", number(dsuLatency?.datagramAfterRead.p50)),
            ("dsu_after_read_us_p99", number(dsuLatency?.datagramAfterRead.p99)),
            ("dsu_after_read_us_max", number(dsuLatency?.datagramAfterRead.max)),
            ("dsu_frame_after_read_us_p50", number(dsuLatency?.frameAfterRead.p50)),
            ("dsu_frame_after_read_us_p99", number(dsuLatency?.frameAfterRead.p99)),
            ("dsu_frame_after_read_us_max", number(dsuLatency?.frameAfterRead.max)),
            ("uhid_flood_cpu_percent", number(uhidFlood?.cpuPercent)),
            ("uhid_flood_wakeups", uhidFlood.map { String($0.wakeUps) } ?? "null"),
            ("cpu_percent_400pps", number(daemon?.cpuPercent)),
            ("cpu_percent_400pps_floor", number(load.loopFloor.summary?.cpuPercent)),
            ("cpu_percent_400pps_machine_floor", number(load.machineFloor.summary?.cpuPercent)),
            ("cpu_us_per_packet_over_machine_floor", number(load.daemonOverMachineFloorMicroseconds)),
            ("cpu_ratio_to_machine_floor", number(load.daemonToMachineFloorRatio)),
            ("cpu_rounds", String(load.daemon.count)),
            ("rss_mb", number(daemon?.peakRSSMegabytes)),
            ("idle_wakeups_per_s", number(daemon?.idleWakeupsPerSecond)),
            ("sink", fdToWrite.map { "\"\($0.sink)\"" } ?? "null"),
            ("daemon_sink", daemon.map { "\"\($0.sink)\"" } ?? "null"),
        ]
        return "{\n" + fields.map { "  \"\($0.0)\": \($0.1)" }.joined(separator: ",\n") + "\n}\n"
    }

    /// The DSU rows: the frame and the datagram from the read, and the datagram after the frame.
    func dsuLines() -> [String] {
        guard let dsu = dsuLatency else { return ["DSU: not measured (\(dsuLatencyNote ?? "?"))"] }
        func figures(_ d: Distribution) -> String { String(format: "p50 %6.1f   p99 %6.1f   max %7.1f", d.p50, d.p99, d.max) }
        return [
            "DSU (profile \(dsu.profile); sink: \(dsu.sink); a DSU server on 127.0.0.1, one client subscribed), µs;",
            "  \(dsu.packetsSent) packets, 1 ms apart, \(dsu.datagrams) datagrams; from the notification's read,",
            "  datagrams dated by the client socket's kernel receive stamp (SO_TIMESTAMPNS, taken in the server's sendto):",
            "  frame written after read:    " + figures(dsu.frameAfterRead),
            "  datagram sent after read:    " + figures(dsu.datagramAfterRead),
            "  datagram sent after frame:   " + figures(dsu.datagramAfterFrame),
        ]
    }

    /// The daemon's rows: the medians of the rounds, each round's CPU figure, and the floors.
    private func loadLines() -> [String] {
        var lines: [String] = []
        func rounds(_ percents: [Double]) -> String {
            percents.count > 1 ? " (rounds: " + percents.map { String(format: "%.3f", $0) }.joined(separator: ", ") + ")" : ""
        }
        if let daemon = load.daemon.summary {
            let count = load.daemon.count
            lines.append("Daemon (\(daemon.what)):")
            lines.append(count > 1
                ? "  \(count) rounds, each the daemon, then the bare event loop, then plain C, fed alike; medians of the rounds"
                : "  one round")
            lines.append(String(format: "  4 controllers x 100 Hz for %.0f s: %.3f %% of one core", daemon.loadSeconds, daemon.cpuPercent)
                + rounds(load.daemon.map(\.cpuPercent))
                + String(format: " (%.1f µs a packet, %.2f wake-ups a packet), peak RSS %.1f MB (%.1f MB of it anonymous, the rest the program's text and shared libraries)",
                         daemon.cpuMicrosecondsPerPacket, daemon.wakeupsPerPacket, daemon.peakRSSMegabytes, daemon.anonymousRSSMegabytes))
            lines.append(String(format: "  silent for %.0f s with 4 connected: %.2f wake-ups/s (the most of any round)", daemon.idleSeconds, daemon.idleWakeupsPerSecond))
        }
        if let note = load.daemonNote {
            lines.append(load.daemon.isEmpty
                ? "Daemon: not measured (\(note))"
                : "  round \(load.daemon.count + 1) of the daemon failed; the figures above are the rounds before it (\(note))")
        }
        if let floor = load.loopFloor.summary {
            lines.append(String(format: "  floor (the same feed into the bare event loop: one read and one 48-byte write a packet, no bridge code): %.3f %% of one core", floor.cpuPercent)
                + rounds(load.loopFloor.map(\.cpuPercent))
                + String(format: " (%.1f µs a packet, %.2f wake-ups a packet)", floor.cpuMicrosecondsPerPacket, floor.wakeupsPerPacket))
        }
        if let note = load.loopFloorNote { lines.append("  floor: not measured (\(note))") }
        if let machine = load.machineFloor.summary {
            lines.append(String(format: "  machine floor (the same in plain C: epoll_wait, read, write): %.3f %% of one core", machine.cpuPercent)
                + rounds(load.machineFloor.map(\.cpuPercent))
                + String(format: " (%.1f µs a packet, %.2f wake-ups a packet)", machine.cpuMicrosecondsPerPacket, machine.wakeupsPerPacket))
        }
        if let note = load.machineFloorNote { lines.append("  machine floor: not measured (\(note))") }
        if let over = load.daemonOverMachineFloorMicroseconds {
            lines.append(String(format: "  the daemon over the C floor, round by round, median: %.1f µs a packet", over)
                + (load.daemonToMachineFloorRatio.map { String(format: " (%.2fx the floor's CPU)", $0) } ?? ""))
        }
        return lines
    }

    private func int(_ value: Double) -> String { value.isFinite ? String(Int(value.rounded())) : "-" }

    private func row(_ cells: [String], widths: [Int]) -> String {
        zip(cells, widths).enumerated().map { index, pair in
            let (cell, width) = pair
            let pad = String(repeating: " ", count: max(0, width - cell.count))
            return index == 0 ? cell + pad : pad + cell
        }.joined(separator: " ")
    }
}
