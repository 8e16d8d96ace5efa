import Timebase

/// The pipeline's cost for one packet with the caches and TLBs cold, as the daemon meets each
/// packet after sleeping in `epoll_wait` on a host that ran other work meanwhile. Before each
/// timed packet, a buffer larger than the last-level cache (64 MB: twice a 32 MB L3) is walked a
/// cache line at a time, which evicts the pipeline's code and data and its TLB entries.
struct ColdPipelineResult {
    var profile: String
    /// Nanoseconds per packet, timer overhead subtracted.
    var perPacket: Distribution
    var packets: Int
}

/// Walks `evictionBytes` of memory before each of `count` packets, then times that packet alone.
/// With no profile, it times nothing between the two clock reads: the cold clock's own cost,
/// which the warm `overhead` does not cover.
@MainActor
func measureColdPipeline(
    _ profile: BenchProfile?, stream: PacketStream, count: Int, evictionBytes: Int, overhead: Int64
) -> ColdPipelineResult {
    let scheduler = ManualScheduler()
    let output = EncodingOutput()
    let pipeline = profile.map { Pipeline($0, output: output, scheduler: scheduler) }
    let eviction = UnsafeMutableRawBufferPointer.allocate(byteCount: evictionBytes, alignment: 4096)
    defer { eviction.deallocate() }
    eviction.initializeMemory(as: UInt8.self, repeating: 1)
    var samples = [Int64](repeating: 0, count: count)
    var virtualTime: Int64 = 1_000_000_000
    var checksum: UInt8 = 0
    stream.bytes.withUnsafeBytes { all in
        for index in 0..<min(stream.count, 4096) {
            virtualTime += stream.intervalNanoseconds
            scheduler.advance(to: MonotonicTime(nanoseconds: virtualTime))
            pipeline?.process(packet(all, index), at: MonotonicTime(nanoseconds: virtualTime))
        }
        for sample in 0..<count {
            var offset = 0
            while offset < evictionBytes {
                eviction[offset] &+= 1
                checksum &+= eviction[offset]
                offset += 64
            }
            let index = sample % stream.count
            virtualTime += stream.intervalNanoseconds
            let bytes = packet(all, index)
            let time = MonotonicTime(nanoseconds: virtualTime)
            let start = monotonicNanoseconds()
            if let pipeline {
                scheduler.advance(to: time)
                pipeline.process(bytes, at: time)
            }
            let end = monotonicNanoseconds()
            samples[sample] = max(0, end &- start &- overhead)
        }
    }
    if checksum == 1 { print("", terminator: "") }
    return ColdPipelineResult(profile: profile?.name ?? "clock reads only", perPacket: Distribution(sorting: &samples), packets: count)
}
