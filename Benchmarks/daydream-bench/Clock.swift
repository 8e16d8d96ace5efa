#if canImport(Glibc)
import Glibc
#endif

/// `CLOCK_MONOTONIC` in nanoseconds, read straight from the vDSO (no wrapper in the way).
@inline(__always)
func monotonicNanoseconds() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Int64(spec.tv_sec) &* 1_000_000_000 &+ Int64(spec.tv_nsec)
}

/// The cost of one back-to-back pair of clock reads, the median over many: what
/// per-item timings subtract so they measure the work and not the clock.
func timerOverheadNanoseconds(samples: Int = 200_000) -> Int64 {
    var deltas = [Int64](repeating: 0, count: samples)
    for index in 0..<samples {
        let start = monotonicNanoseconds()
        let end = monotonicNanoseconds()
        deltas[index] = end &- start
    }
    deltas.sort()
    return deltas[samples / 2]
}
