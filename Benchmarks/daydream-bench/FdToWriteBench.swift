import Bridge
import DaydreamProtocol
import Descriptors
import EventLoop
import Foundation
import Mapping
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
///
/// It owns the sending end of the packets, which closes when the state goes: after its thread
/// has ended and the bench has read `sentAt`.
final class SenderState: @unchecked Sendable {
    let socket: FileDescriptor
    let stream: PacketStream
    let count: Int
    let spacingNanoseconds: Int64
    let sentAt: UnsafeMutablePointer<Int64>
    let done = DispatchSemaphore(value: 0)

    init(socket: consuming FileDescriptor, stream: PacketStream, count: Int, spacingNanoseconds: Int64) {
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
        let socket = socket.rawValue
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

/// Drains the sink pipe so the bridge's writes never block, until the pipe's writing end
/// closes. It owns the reading end, which closes when the drain goes (after its thread).
final class Drain: @unchecked Sendable {
    let pipe: FileDescriptor
    init(reading pipe: consuming FileDescriptor) { self.pipe = pipe }
    func run() {
        let fd = pipe.rawValue
        var buffer = [UInt8](repeating: 0, count: 65536)
        while buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 {}
    }
}

func sleepUntil(_ deadline: Int64) {
    var spec = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil) == EINTR {}
}

/// Sends `count` packets into a `socketpair(SOCK_SEQPACKET)`, `spacing` apart so the loop
/// is asleep in `epoll_wait` when each arrives. The daemon's event loop (`Reactor`) watches
/// the other end and reads it as the BlueZ link's `NotificationStream` does (non-blocking,
/// one `read` per notification, into a buffer allocated once), then `Pipeline` runs with
/// the reactor as its scheduler (so long-press and hold timers arm the real timerfd) and a
/// `BenchDeviceSink` writes each device frame with one `write(2)`.
///
/// With `floorOnly`, the handler skips the bridge: it reads the packet and writes one fixed
/// 48-byte frame. That is the floor the event loop puts under the figure: thread wake-up,
/// `epoll_wait`, `read`, `write` (`daydream-machine-floor --latency` measures the same in C).
@MainActor
func measureFdToWrite(
    _ profile: BenchProfile, stream: PacketStream, count: Int, spacingNanoseconds: Int64, floorOnly: Bool = false
) throws -> FdToWriteResult {
    // The loop's two ends close when `channels` goes, as this returns or throws (see `BenchChannels`).
    let channels = try BenchChannels()
    let receiver = channels.packetReceiver.rawValue
    let framesWrite = channels.framesWrite.rawValue
    let reactor = channels.reactor
    let capabilities = MappingEngine(configuration: profile.configuration, profileName: profile.profile).capabilities
    let sink = BenchDeviceSink(capabilities: capabilities, pipe: framesWrite)
    let pipeline = Pipeline(profile, output: sink, scheduler: reactor)
    let sender = SenderState(socket: channels.packetSender, stream: stream, count: count, spacingNanoseconds: spacingNanoseconds)
    let drain = Drain(reading: channels.framesRead)
    let writtenAt = UnsafeMutablePointer<Int64>.allocate(capacity: count)
    writtenAt.initialize(repeating: 0, count: count)
    defer { writtenAt.deallocate() }

    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 512, alignment: 8)
    defer { buffer.deallocate() }
    let frame = UnsafeMutableRawBufferPointer.allocate(byteCount: 48, alignment: 8)
    frame.initializeMemory(as: UInt8.self, repeating: 0)
    defer { frame.deallocate() }
    var received = 0
    var withOutput = 0
    let watch: IOWatch
    do {
        watch = try reactor.watch(receiver, interest: .readable) { _ in
            for _ in 0..<16 where received < count {
                let length = read(receiver, buffer.baseAddress, buffer.count)
                guard length > 0 else { break }
                if floorOnly {
                    _ = write(framesWrite, frame.baseAddress, frame.count)
                    writtenAt[received] = monotonicNanoseconds()
                    withOutput += 1
                    received += 1
                    continue
                }
                let writesBefore = sink.writes
                pipeline.process(UnsafeRawBufferPointer(rebasing: buffer[0..<length]), at: reactor.now)
                if sink.writes != writesBefore {
                    writtenAt[received] = sink.lastWriteNanoseconds
                    withOutput += 1
                }
                received += 1
            }
        }
    } catch {
        throw BenchError("watching the socket: \(error)")
    }
    defer { watch.cancel() }

    let drainThread = Thread { drain.run() }
    drainThread.start()
    let senderThread = Thread { sender.run() }
    senderThread.start()

    let expected = TimeSpan(nanoseconds: spacingNanoseconds * Int64(count) + 10_000_000_000)
    guard reactor.run(until: { received >= count }, timeout: expected) else {
        throw BenchError("only \(received) of \(count) packets arrived")
    }
    sender.done.wait()
    guard withOutput > 0 else {
        throw BenchError("no packet produced an event to write (\(profile.name))")
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
        profile: floorOnly ? "none (floor)" : profile.name, latency: distribution, sink: floorOnly ? "pipe" : sink.kind,
        loop: "Reactor (epoll)",
        packetsSent: count, packetsWithOutput: withOutput)
}

/// A failure that stops one measurement (the others still run).
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
