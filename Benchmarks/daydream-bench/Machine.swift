import Foundation

/// A one-line description of the machine the figures come from.
func machineDescription() -> String {
    let cpuInfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let model = cpuInfo.split(separator: "\n")
        .first { $0.hasPrefix("model name") }
        .flatMap { $0.split(separator: ":", maxSplits: 1).last }
        .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
    let kernel = ((try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8)) ?? "?")
        .trimmingCharacters(in: .whitespacesAndNewlines)
    return "\(model), \(ProcessInfo.processInfo.activeProcessorCount) cores, Linux \(kernel)"
}
