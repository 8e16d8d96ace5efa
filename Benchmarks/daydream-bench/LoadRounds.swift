/// The daemon's cost under load next to its two floors, measured in turns.
///
/// Each round runs the same feed three times: into the daemon, into the bare event loop
/// (`daydream-bench --loop-floor`), into plain C (`daydream-machine-floor`). On a VM whose figures
/// drift by a fifth from one minute to the next, a single run of each compares runs made under
/// different weather; rounds compare neighbours, and the medians are the figures to read.
struct LoadRounds {
    var daemon: [DaemonResult] = []
    var loopFloor: [LoopFloorResult] = []
    var machineFloor: [LoopFloorResult] = []
    /// Why a measurement stopped (it is not retried in later rounds).
    var daemonNote: String?
    var loopFloorNote: String?
    var machineFloorNote: String?

    /// Runs `rounds` rounds of `loadSeconds` each (the daemon also stays silent for `idleSeconds`
    /// after each load). A program that fails is left out of the later rounds.
    static func measure(
        rounds: Int, bridge: String, loopStandIn: String, machineStandIn: String, script: String,
        loadSeconds: Int, idleSeconds: Int
    ) -> LoadRounds {
        var result = LoadRounds()
        for _ in 0..<max(1, rounds) {
            if result.daemonNote == nil {
                do {
                    result.daemon.append(try measureDaemon(
                        bridge: bridge, script: script, loadSeconds: loadSeconds, idleSeconds: idleSeconds))
                } catch {
                    result.daemonNote = "\(error)"
                }
            }
            if result.loopFloorNote == nil {
                do {
                    result.loopFloor.append(try measureLoopFloor(standIn: loopStandIn, script: script, loadSeconds: loadSeconds))
                } catch {
                    result.loopFloorNote = "\(error)"
                }
            }
            if result.machineFloorNote == nil {
                do {
                    result.machineFloor.append(try measureLoopFloor(standIn: machineStandIn, script: script, loadSeconds: loadSeconds))
                } catch {
                    result.machineFloorNote = "\(error)"
                }
            }
        }
        return result
    }

    /// Per round, the daemon's CPU time a packet less the C floor's in the same round; the median.
    /// What the bridge's own code costs under load, with the machine's share taken out.
    var daemonOverMachineFloorMicroseconds: Double? {
        median(zip(daemon, machineFloor).map { $0.cpuMicrosecondsPerPacket - $1.cpuMicrosecondsPerPacket })
    }

    /// The daemon's CPU a packet as a multiple of the plain-C floor's, round by round: the median.
    var daemonToMachineFloorRatio: Double? {
        median(zip(daemon, machineFloor).compactMap { daemon, floor in
            floor.cpuMicrosecondsPerPacket > 0 ? daemon.cpuMicrosecondsPerPacket / floor.cpuMicrosecondsPerPacket : nil
        })
    }
}

/// The middle value (the mean of the middle two for an even count); nil when there are none.
func median(_ values: [Double]) -> Double? {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return nil }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

extension Array where Element == DaemonResult {
    /// The figures of every round in one: CPU medians, and the worst RSS and idle wake-ups.
    var summary: DaemonResult? {
        guard var combined = first else { return nil }
        combined.loadSeconds = median(map(\.loadSeconds)) ?? combined.loadSeconds
        combined.cpuPercent = median(map(\.cpuPercent)) ?? combined.cpuPercent
        combined.cpuMicrosecondsPerPacket = median(map(\.cpuMicrosecondsPerPacket)) ?? combined.cpuMicrosecondsPerPacket
        combined.wakeupsPerPacket = median(map(\.wakeupsPerPacket)) ?? combined.wakeupsPerPacket
        combined.peakRSSMegabytes = map(\.peakRSSMegabytes).max() ?? combined.peakRSSMegabytes
        combined.anonymousRSSMegabytes = map(\.anonymousRSSMegabytes).max() ?? combined.anonymousRSSMegabytes
        combined.idleWakeupsPerSecond = map(\.idleWakeupsPerSecond).max() ?? combined.idleWakeupsPerSecond
        return combined
    }
}

extension Array where Element == LoopFloorResult {
    /// The medians of every round's figures.
    var summary: LoopFloorResult? {
        guard !isEmpty else { return nil }
        return LoopFloorResult(
            cpuPercent: median(map(\.cpuPercent)) ?? .nan,
            cpuMicrosecondsPerPacket: median(map(\.cpuMicrosecondsPerPacket)) ?? .nan,
            wakeupsPerPacket: median(map(\.wakeupsPerPacket)) ?? .nan)
    }
}
