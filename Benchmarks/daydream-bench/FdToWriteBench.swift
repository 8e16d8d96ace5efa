import DaydreamProtocol
import Foundation
import Timebase
#if canImport(Glibc)
import Glibc
#endif

/// Latency from a notification written into the socket that stands in for BlueZ's
/// AcquireNotify fd to the `write(2)` of its events on the output device.
struct FdToWriteResult {
    var profile: String
    /// Microseconds from before the sender's `write` to after the bridge's sink `write` returned.
    var latency: Distribution
    /// "uinput" or "pipe".
    var sink: String
    /// What waits for the fd.
    var loop: String
    var packetsSent: Int
    var packetsWithOutput: Int
}

/// State the sender thread shares with the loop; each side only touches its own
/// array until the sender has been joined.
private final class SenderState: @unchecked Sendable {
    let socket: CInt
    let stream: PacketStream
    let count: Int
    let spacingNanoseconds: Int64
    let sentAt: UnsafeMutablePointer<Int64>
    let done = DispatchSemaphore(value: 0)

    init(socket: CInt, stream: PacketStream, count: Int, spacingNanoseconds: Int64) {
        self.socket = socket
        self.stream = stream
        self.count = count
        self.spacingNanoseconds = spacingNanoseconds
        sentAt = .allocate(capacity: count)
        sentAt.initialize(repeating: 0, count: count)
    }

    deinit { sentAt.deallocate() }

    /// Sends `count` packets `spacing` apart, stamping each just before its `write`.
    func run() {
        stream.bytes.withUnsafeBytes { all in
            var next = monotonicNanoseconds()
            for index in 0..<count {
                next += spacingNanoseconds
                sleepUntil(next)
                let offset = (index % stream.count) * 20
                sentAt[index] = monotonicNanoseconds()
                _ = write(socket, all.baseAddress.map { $0 + offset }, 20)
            }
        }
        done.signal()
    }
}

/// Drains the sink pipe so the bridge's writes never block.
private final class Drain: @unchecked Sendable {
    let fd: CInt
    init(fd: CInt) { self.fd = fd }
    func run() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 {}
    }
}

private func sleepUntil(_ deadline: Int64) {
    var spec = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil) == EINTR {}
}

/// Sends `count` packets into a `socketpair(SOCK_SEQPACKET)`, `spacing` apart so the loop
/// is asleep in `poll` when each arrives; the loop reads it, runs `Pipeline`, and
/// writes each device's events with one `write(2)` to the sink.
@MainActor
func measureFdToWrite(_ profile: BenchProfile, stream: PacketStream, count: Int, spacingNanoseconds: Int64) throws -> FdToWriteResult {
    var pair: [CInt] = [-1, -1]
    guard socketpair(AF_UNIX, CInt(SOCK_SEQPACKET.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
        throw BenchError("socketpair: \(String(cString: strerror(errno)))")
    }
    var pipeFds: [CInt] = [-1, -1]
    guard pipe(&pipeFds) == 0 else { throw BenchError("pipe: \(String(cString: strerror(errno)))") }
    // F_SETPIPE_SZ (1031; Glibc hides it behind _GNU_SOURCE): room for bursts.
    _ = fcntl(pipeFds[1], 1031, CInt(1 << 20))
    defer {
        close(pair[1])
        close(pipeFds[1])
    }
    let receiver = pair[1]

    let pipeline = Pipeline(configuration: profile.configuration, profile: profile.profile, encodes: false)
    let sink = BenchSink(capabilities: pipeline.capabilities, pipe: pipeFds[1])
    let sender = SenderState(socket: pair[0], stream: stream, count: count, spacingNanoseconds: spacingNanoseconds)
    let drain = Drain(fd: pipeFds[0])
    let writtenAt = UnsafeMutablePointer<Int64>.allocate(capacity: count)
    writtenAt.initialize(repeating: 0, count: count)
    defer { writtenAt.deallocate() }

    let drainThread = Thread { drain.run() }
    drainThread.start()
    let senderThread = Thread { sender.run() }
    senderThread.start()

    var buffer = PacketBytes()
    var received = 0
    var withOutput = 0
    var ready = pollfd(fd: receiver, events: Int16(POLLIN), revents: 0)
    while received < count {
        let n = poll(&ready, 1, 5_000)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { throw BenchError("no packet for 5 s after \(received)") }
        let length = buffer.withUnsafeMutableBytes { read(receiver, $0.baseAddress, $0.count) }
        guard length > 0 else { throw BenchError("read: \(String(cString: strerror(errno)))") }
        let now = MonotonicTime.now()
        buffer.withUnsafeBytes { bytes in
            pipeline.process(UnsafeRawBufferPointer(rebasing: bytes[0..<length]), at: now)
        }
        if sink.send(pipeline.output.events) {
            writtenAt[received] = monotonicNanoseconds()
            withOutput += 1
        }
        received += 1
    }
    sender.done.wait()
    close(pair[0])
    guard withOutput > 0 else {
        throw BenchError("no packet produced an event to write (\(profile.name): is the mapping engine's body on main yet?)")
    }

    // Percentiles in nanoseconds, reported in microseconds.
    var nanoseconds: [Int64] = []
    nanoseconds.reserveCapacity(withOutput)
    for index in 0..<count where writtenAt[index] != 0 {
        nanoseconds.append(writtenAt[index] - sender.sentAt[index])
    }
    var distribution = Distribution(sorting: &nanoseconds)
    distribution.p50 /= 1000
    distribution.p99 /= 1000
    distribution.p999 /= 1000
    distribution.max /= 1000
    distribution.mean /= 1000
    return FdToWriteResult(
        profile: profile.name, latency: distribution, sink: sink.kind, loop: "bench poll(2) loop, EventLoop not on main yet",
        packetsSent: count, packetsWithOutput: withOutput)
}

/// A failure that stops one measurement (the others still run).
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
