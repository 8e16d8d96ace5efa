import Bridge
import DSUServer
import DSU
import DaydreamProtocol
import EventLoop
import Foundation
import Mapping
import Timebase
#if canImport(Glibc)
import Glibc
#endif

/// When each packet's DSU datagram left, next to its device frame: both timed from the
/// notification's read.
struct DSULatencyResult {
    var profile: String
    /// "uinput" or "pipe".
    var sink: String
    var packetsSent: Int
    /// Data messages the client received.
    var datagrams: Int
    /// Microseconds from the notification's `read` to the frame's `write` returning.
    var frameAfterRead: Distribution
    /// Microseconds from the notification's `read` to the datagram's send (kernel stamp).
    var datagramAfterRead: Distribution
    /// Microseconds from the frame's `write` returning to the datagram's send, for packets
    /// that wrote a frame.
    var datagramAfterFrame: Distribution
}

/// The fd-to-write path as the daemon runs it with DSU on: the notification socket read by
/// the daemon's event loop, one `ControllerFeed` feeding the mapping session (frames to
/// `BenchDeviceSink`) and then a `DSUServer` on 127.0.0.1, with one client subscribed.
///
/// Each packet's times: the loop's clock right after the `read` that took the notification,
/// the sink's right after its frame's `write`, and the client socket's kernel receive stamp
/// (`TimestampingDSUClient`), which on loopback is taken inside the server's `sendto`. The
/// stamp is `CLOCK_REALTIME`; the loop reads both clocks after each packet, and that offset
/// brings the stamp onto `CLOCK_MONOTONIC`.
@MainActor
func measureDSULatency(
    _ profile: BenchProfile, stream: PacketStream, count: Int, spacingNanoseconds: Int64
) throws -> DSULatencyResult {
    // The loop's two ends close when `channels` goes, as this returns or throws (see `BenchChannels`).
    let channels = try BenchChannels()
    let receiver = channels.packetReceiver.rawValue
    let reactor = channels.reactor
    let server: DSUServer
    do {
        server = try DSUServer(listeningOn: DSUListenAddress(octets: [127, 0, 0, 1], port: 0), reactor: reactor)
    } catch {
        throw BenchError("the DSU server: \(error)")
    }
    let capabilities = MappingEngine(configuration: profile.configuration, profileName: profile.profile).capabilities
    let sink = BenchDeviceSink(capabilities: capabilities, pipe: channels.framesWrite.rawValue)
    let pipeline = Pipeline(profile, output: sink, scheduler: reactor)
    // As the daemon attaches them: the mapping session first, then the DSU slot.
    server.attach(pipeline.feed)

    let client = try TimestampingDSUClient(serverPort: server.address.port, capacity: count)
    client.subscribe()
    guard reactor.run(until: { server.clientCount == 1 }, timeout: .seconds(5)) else {
        throw BenchError("the DSU client's subscription never reached the server")
    }
    // Renewed once the confirmation delay has passed, as a real client renews: until then the
    // server sends it no more bytes than it sent, so no data message.
    let renewal = reactor.schedule(at: reactor.now + DSUServer.confirmationDelay) { client.subscribe() }
    defer { renewal.cancel() }
    guard reactor.run(until: { server.status.clients.first?.confirmed == true }, timeout: .seconds(5)) else {
        throw BenchError("the DSU client's renewal never confirmed it")
    }

    let sender = SenderState(socket: channels.packetSender, stream: stream, count: count, spacingNanoseconds: spacingNanoseconds)
    let drain = Drain(reading: channels.framesRead)
    let times = PacketTimes(count: count)

    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 512, alignment: 8)
    defer { buffer.deallocate() }
    var received = 0
    let watch: IOWatch
    do {
        watch = try reactor.watch(receiver, interest: .readable) { _ in
            for _ in 0..<16 where received < count {
                let length = read(receiver, buffer.baseAddress, buffer.count)
                guard length > 0 else { break }
                times.readAt[received] = monotonicNanoseconds()
                let writesBefore = sink.writes
                pipeline.process(UnsafeRawBufferPointer(rebasing: buffer[0..<length]), at: reactor.now)
                if sink.writes != writesBefore { times.writtenAt[received] = sink.lastWriteNanoseconds }
                times.realtimeOffset[received] = realtimeMinusMonotonicNanoseconds()
                received += 1
            }
        }
    } catch {
        throw BenchError("watching the socket: \(error)")
    }
    defer { watch.cancel() }

    let clientThread = Thread { client.run(expected: count) }
    clientThread.start()
    let drainThread = Thread { drain.run() }
    drainThread.start()
    let senderThread = Thread { sender.run() }
    senderThread.start()

    let expected = TimeSpan(nanoseconds: spacingNanoseconds * Int64(count) + 10_000_000_000)
    guard reactor.run(until: { received >= count }, timeout: expected) else {
        throw BenchError("only \(received) of \(count) packets arrived")
    }
    sender.done.wait()
    client.done.wait()
    guard client.received > 0 else { throw BenchError("the DSU client received no data message") }

    var frame: [Int64] = []
    var datagram: [Int64] = []
    var afterFrame: [Int64] = []
    for index in 0..<count {
        let read = times.readAt[index]
        let written = times.writtenAt[index]
        if written != 0 { frame.append(written - read) }
        let stamp = client.stampedAt[index]
        guard stamp != 0 else { continue }
        let sent = stamp - times.realtimeOffset[index]
        guard sent >= read else {
            throw BenchError("datagram \(index + 1) is dated before its packet's read: the clocks do not line up")
        }
        datagram.append(sent - read)
        if written != 0 { afterFrame.append(sent - written) }
    }
    guard !afterFrame.isEmpty else { throw BenchError("no packet wrote both a frame and a datagram (\(profile.name))") }
    return DSULatencyResult(
        profile: profile.name, sink: sink.kind, packetsSent: count, datagrams: client.received,
        frameAfterRead: microseconds(&frame), datagramAfterRead: microseconds(&datagram),
        datagramAfterFrame: microseconds(&afterFrame))
}

/// Each packet's times in `CLOCK_MONOTONIC` nanoseconds (0 where there was none), written by
/// the loop only.
private final class PacketTimes {
    let readAt: UnsafeMutablePointer<Int64>
    let writtenAt: UnsafeMutablePointer<Int64>
    /// `CLOCK_REALTIME` minus `CLOCK_MONOTONIC`, read just after the packet was handled.
    let realtimeOffset: UnsafeMutablePointer<Int64>

    init(count: Int) {
        readAt = .allocate(capacity: count)
        writtenAt = .allocate(capacity: count)
        realtimeOffset = .allocate(capacity: count)
        for times in [readAt, writtenAt, realtimeOffset] { times.initialize(repeating: 0, count: count) }
    }

    deinit {
        for times in [readAt, writtenAt, realtimeOffset] { times.deallocate() }
    }
}

/// `CLOCK_REALTIME` minus `CLOCK_MONOTONIC`, both read back to back.
private func realtimeMinusMonotonicNanoseconds() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    let realtime = Int64(spec.tv_sec) &* 1_000_000_000 &+ Int64(spec.tv_nsec)
    return realtime - monotonicNanoseconds()
}

/// Nanosecond samples summarised in microseconds.
private func microseconds(_ nanoseconds: inout [Int64]) -> Distribution {
    var distribution = Distribution(sorting: &nanoseconds)
    distribution.p50 /= 1000
    distribution.p99 /= 1000
    distribution.p999 /= 1000
    distribution.max /= 1000
    distribution.mean /= 1000
    return distribution
}
