import Timebase

/// When the bridge reads `/dev/uhid`: as soon as the kernel has something (a watch on the
/// descriptor), except in a flood of output reports (a game's rumble and lights, thousands a
/// second), where waking for each one would cost a wake-up and two reads a report. Then it
/// reads once every `interval` (a timer), everything queued in one go.
///
/// uhid queues 32 events and drops (with a kernel warning each) what comes on top, requests
/// included, so pacing lasts only while the flood brings fewer than half that many an
/// interval: a faster one (two intervals in a row, as one burst still fits; or a full queue)
/// goes back to being read at once, and is not paced again for `holdOff`. Anything but output reports (a request to answer, the driver binding or letting
/// go) ends the pacing too, as does a drain that finds nothing (the flood is over).
struct UHIDDrainPacing {
    /// How long output reports wait in a flood.
    static let interval = TimeSpan.milliseconds(1)
    /// uhid's queue (`UHID_BUFSIZE`).
    static let kernelQueue = 32
    /// Events an interval may bring and still be paced: half of uhid's queue.
    static let pacedLimit = kernelQueue / 2
    /// How long a flood too fast for pacing is read at once before pacing may start again.
    static let holdOff = TimeSpan.seconds(1)

    /// Whether reads are paced (the watch off, a timer on).
    private(set) var isPaced = false
    private var lastDrain: MonotonicTime?
    /// Whether the last drain found output reports alone.
    private var lastFoundOutputOnly = false
    private var heldOffUntil: MonotonicTime?
    /// Whether the last paced drain found a fast flood's worth.
    private var lastWasFast = false

    /// After a drain at `time`: whether the next read is to be paced.
    mutating func afterDrain(_ drain: UHIDDevice.Drain, at time: MonotonicTime) -> Bool {
        let outputOnly = drain.onlyOutputReports && drain.events > 0
        let elapsed = lastDrain.map { time - $0 }
        defer {
            lastDrain = time
            lastFoundOutputOnly = outputOnly
        }
        // A paced drain's events over the time since the last one: what an interval brings. (A
        // late timer finds more, at the same rate.)
        let perInterval = isPaced ? Int64(drain.events) * Self.interval.nanoseconds : 0
        let fast = perInterval >= Int64(Self.pacedLimit) * max(elapsed?.nanoseconds ?? 0, 1)
        let tooFast = drain.events >= Self.kernelQueue || (fast && lastWasFast)
        lastWasFast = fast && !tooFast
        if tooFast { heldOffUntil = time + Self.holdOff }
        if !drain.onlyOutputReports || tooFast || (isPaced && drain.events == 0) {
            isPaced = false
        } else if !isPaced, outputOnly, lastFoundOutputOnly, let elapsed, elapsed < Self.interval,
                  heldOffUntil.map({ time >= $0 }) ?? true {
            // Output reports closer together than the interval: a flood.
            isPaced = true
        }
        return isPaced
    }
}
