import Descriptors
import EventLoop
import Glibc

/// The plumbing both fd-to-write benches share: a `SOCK_SEQPACKET` pair standing in for a
/// controller's notification socket (the sender thread writes `packetSender`, the loop reads
/// `packetReceiver`, non-blocking), a pipe with room for bursts that takes the frames, and the
/// event loop.
///
/// Each end has one owner. A bench hands `packetSender` to its `SenderState` and `framesRead`
/// to its `Drain`, which close them when their threads are done with them; the loop's two ends
/// stay here and close when this value goes, as the bench returns or throws (after its `defer`s,
/// so after the watch on `packetReceiver` is cancelled). Closing `framesWrite` is what ends the
/// drain: it reads the frames to the end of the pipe.
@MainActor
struct BenchChannels: ~Copyable {
    /// The sender thread's end of the packets.
    let packetSender: FileDescriptor
    /// The loop's end of the packets, non-blocking.
    let packetReceiver: FileDescriptor
    /// The drain thread's end of the frames.
    let framesRead: FileDescriptor
    /// The sink's end of the frames.
    let framesWrite: FileDescriptor
    let reactor: Reactor

    init() throws {
        var pair: [CInt] = [-1, -1]
        guard socketpair(AF_UNIX, CInt(SOCK_SEQPACKET.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw BenchError("socketpair: \(String(cString: strerror(errno)))")
        }
        let sender = FileDescriptor(owning: pair[0])
        let receiver = FileDescriptor(owning: pair[1])
        // From here a throw closes what is open: each end is owned by a local until it is stored.
        var pipeFds: [CInt] = [-1, -1]
        guard pipe(&pipeFds) == 0 else {
            throw BenchError("pipe: \(String(cString: strerror(errno)))")
        }
        let readEnd = FileDescriptor(owning: pipeFds[0])
        let writeEnd = FileDescriptor(owning: pipeFds[1])
        // F_SETPIPE_SZ (1031; Glibc hides it behind _GNU_SOURCE): room for bursts.
        _ = fcntl(writeEnd.rawValue, 1031, CInt(1 << 20))
        _ = fcntl(receiver.rawValue, F_SETFL, fcntl(receiver.rawValue, F_GETFL) | O_NONBLOCK)
        do {
            reactor = try Reactor()
        } catch {
            throw BenchError("the event loop: \(error)")
        }
        packetSender = sender
        packetReceiver = receiver
        framesRead = readEnd
        framesWrite = writeEnd
    }
}
