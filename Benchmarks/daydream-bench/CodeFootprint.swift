import Foundation

/// The code one packet runs through, by where it lies: the distinct 64-byte cache lines and
/// 4 KiB pages holding the instructions the packet path runs, counted by callgrind.
///
/// An instruction counts when it ran at least once every `Callgrind.footprintShare` packets,
/// judged by the difference of the two runs (`long` packets and `short`), so start-up cancels out
/// as it does for the instruction count; the rare paths (a buffer that grows once) do not count.
struct CodeFootprint {
    var profile: String
    var cacheLines: Int
    var pages: Int
}

extension Callgrind {
    /// An instruction is on the packet path when it ran at least once every this many packets.
    static let footprintShare = 100

    /// `profile`'s footprint: both runs under callgrind with `--dump-instr=yes`, in a copy made
    /// with `strip --strip-debug`.
    static func measureFootprint(profile: String, configDirectory: String) throws -> CodeFootprint {
        let setup = try prepare(Bundle.main.executablePath ?? CommandLine.arguments[0], what: "the code footprint")
        defer { try? FileManager.default.removeItem(atPath: setup.directory) }
        func counts(_ packets: Int) throws -> [InstructionAddress: Int] {
            let output = "\(setup.directory)/callgrind.instr.\(packets).out"
            try run(setup.valgrind, ["--tool=callgrind", "--quiet", "--dump-instr=yes", "--callgrind-out-file=\(output)",
                                     setup.copy, "--config-dir", configDirectory, "--only", profile, "--packets", String(packets)])
            return try instructionCounts(in: output)
        }
        let long = try counts(Self.long)
        let short = try counts(Self.short)
        let least = (Self.long - Self.short) / footprintShare
        var lines = Set<InstructionAddress>()
        var pages = Set<InstructionAddress>()
        for (address, count) in long where count - (short[address] ?? 0) >= least {
            lines.insert(InstructionAddress(object: address.object, offset: address.offset >> 6))
            pages.insert(InstructionAddress(object: address.object, offset: address.offset >> 12))
        }
        return CodeFootprint(profile: profile, cacheLines: lines.count, pages: pages.count)
    }

    /// Where an instruction is: its object (callgrind's `ob=` number) and its address there.
    struct InstructionAddress: Hashable {
        var object: Int
        var offset: Int
    }

    /// The instructions run in a callgrind output written with `--dump-instr=yes`
    /// (`positions: instr line`), each with how often it ran (its own `Ir`, calls' costs left out).
    static func instructionCounts(in path: String) throws -> [InstructionAddress: Int] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var counts: [InstructionAddress: Int] = [:]
        var object = 0
        var address = 0
        var afterCall = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let first = line.first else { continue }
            if line.hasPrefix("ob=(") {
                let number = line.dropFirst(4).prefix { $0 != ")" }
                object = Int(number) ?? object
                continue
            }
            if line.hasPrefix("calls=") {
                afterCall = true  // the next line is the call's inclusive cost, at the call's address
                continue
            }
            guard first == "0" || first == "+" || first == "-" || first == "*" else { continue }
            // The instruction, its source line, its `Ir` (left out when zero).
            let fields = line.split(separator: " ")
            guard let position = fields.first else { continue }
            let cost = fields.count >= 3 ? Int(fields[2]) ?? 0 : 0
            // Subposition compression: absolute (hex), relative to the last one (+n, -n), or the same (*).
            if position.hasPrefix("0x") {
                address = Int(position.dropFirst(2), radix: 16) ?? address
            } else if position.hasPrefix("+") {
                address += Int(position.dropFirst()) ?? 0
            } else if position.hasPrefix("-") {
                address -= Int(position.dropFirst()) ?? 0
            }
            if afterCall {
                afterCall = false
                continue
            }
            counts[InstructionAddress(object: object, offset: address), default: 0] += cost
        }
        guard !counts.isEmpty else { throw BenchError("no instruction addresses in \(path) (not written with --dump-instr=yes?)") }
        return counts
    }
}
