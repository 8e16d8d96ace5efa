import DaydreamProtocol
import Timebase

/// Per-packet cost of `Pipeline` for one profile.
struct PipelineResult {
    var profile: String
    /// Per-packet nanoseconds, timer overhead subtracted.
    var perPacket: Distribution
    /// Mean nanoseconds per packet from batches of 64 timed together (no per-packet clock reads).
    var batchMean: Double
    var eventsPerPacket: Double
}

/// Measures the pipeline with a `ManualScheduler` (virtual time, so timers fire exactly
/// and the `timerfd_settime` a real loop makes on a re-arm is not counted here: the fd
/// benchmark has it): a warm-up pass, then every packet timed on its own with
/// two `CLOCK_MONOTONIC` reads (the median cost of an empty pair of reads is subtracted),
/// then the same stream again timed in batches of 64 as a cross-check on the mean
/// that carries no clock cost. The packet's arrival time is the stream's virtual
/// time, so long-press and hold timers fire as they would at 100 Hz.
@MainActor
func measurePipeline(_ profile: BenchProfile, stream: PacketStream, passes: Int, overhead: Int64) -> PipelineResult {
    let scheduler = ManualScheduler()
    let output = EncodingOutput()
    let pipeline = Pipeline(profile, output: output, scheduler: scheduler)
    let total = stream.count * passes
    var samples = [Int64](repeating: 0, count: total)
    var virtualTime: Int64 = 1_000_000_000
    stream.bytes.withUnsafeBytes { all in
        // Warm-up: one pass, untimed.
        for index in 0..<stream.count {
            virtualTime += stream.intervalNanoseconds
            scheduler.advance(to: MonotonicTime(nanoseconds: virtualTime))
            pipeline.process(packet(all, index), at: MonotonicTime(nanoseconds: virtualTime))
        }
        var sample = 0
        for _ in 0..<passes {
            for index in 0..<stream.count {
                virtualTime += stream.intervalNanoseconds
                let bytes = packet(all, index)
                let time = MonotonicTime(nanoseconds: virtualTime)
                let start = monotonicNanoseconds()
                scheduler.advance(to: time)
                pipeline.process(bytes, at: time)
                let end = monotonicNanoseconds()
                samples[sample] = max(0, end &- start &- overhead)
                sample += 1
            }
        }
    }
    let eventsPerPacket = Double(output.totalEvents) / Double(total + stream.count)

    // Batches of 64, no clock inside a batch.
    let batch = 64
    var batchMeans = [Int64](repeating: 0, count: total / batch)
    stream.bytes.withUnsafeBytes { all in
        var index = 0
        for batchIndex in 0..<batchMeans.count {
            let start = monotonicNanoseconds()
            for _ in 0..<batch {
                virtualTime += stream.intervalNanoseconds
                scheduler.advance(to: MonotonicTime(nanoseconds: virtualTime))
                pipeline.process(packet(all, index), at: MonotonicTime(nanoseconds: virtualTime))
                index += 1
                if index == stream.count { index = 0 }
            }
            let end = monotonicNanoseconds()
            batchMeans[batchIndex] = (end &- start) / Int64(batch)
        }
    }
    let batches = Distribution(sorting: &batchMeans)
    return PipelineResult(
        profile: profile.name,
        perPacket: Distribution(sorting: &samples),
        batchMean: batches.mean,
        eventsPerPacket: eventsPerPacket
    )
}

/// Packet `index` (20 bytes) of a stream's bytes.
@inline(__always)
func packet(_ all: UnsafeRawBufferPointer, _ index: Int) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(rebasing: all[(index * 20)..<(index * 20 + 20)])
}

/// The decoder alone, timed the same way, and in batches of 64 (its per-packet cost is near the
/// clock's own, so the batch mean is the figure to read).
func measureDecode(stream: PacketStream, passes: Int, overhead: Int64) -> PipelineResult {
    let total = stream.count * passes
    var samples = [Int64](repeating: 0, count: total)
    var checksum = 0
    let batch = 64
    var batchMeans = [Int64](repeating: 0, count: total / batch)
    stream.bytes.withUnsafeBytes { all in
        var sample = 0
        for _ in 0..<passes {
            for index in 0..<stream.count {
                let bytes = packet(all, index)
                let start = monotonicNanoseconds()
                let decoded = try? DaydreamPacket(bytes: bytes)
                let end = monotonicNanoseconds()
                checksum &+= Int(decoded?.sequence ?? 0)
                samples[sample] = max(0, end &- start &- overhead)
                sample += 1
            }
        }
        var index = 0
        for batchIndex in 0..<batchMeans.count {
            let start = monotonicNanoseconds()
            for _ in 0..<batch {
                let decoded = try? DaydreamPacket(bytes: packet(all, index))
                checksum &+= Int(decoded?.gyro.x ?? 0)
                index += 1
                if index == stream.count { index = 0 }
            }
            let end = monotonicNanoseconds()
            batchMeans[batchIndex] = (end &- start) / Int64(batch)
        }
    }
    // Keeps the decoding from being optimised away.
    if checksum == -1 { print(checksum) }
    return PipelineResult(
        profile: "decode only", perPacket: Distribution(sorting: &samples),
        batchMean: Distribution(sorting: &batchMeans).mean, eventsPerPacket: 0)
}
