import EventLoop
import Glibc

/// The plumbing both fd-to-write benches share: a `SOCK_SEQPACKET` pair standing in for a
/// controller's notification socket (the sender thread writes `packetSender`, the loop reads
/// `packetReceiver`, non-blocking), a pipe with room for bursts that takes the frames, and the
/// event loop. `closeLoopEnds()` closes the loop's two ends; the sender and the drain close theirs.
@MainActor
struct BenchChannels {
    let packetSender: CInt
    let packetReceiver: CInt
    let framesRead: CInt
    let framesWrite: CInt
    let reactor: Reactor

    init() throws {
        var pair: [CInt] = [-1, -1]
        guard socketpair(AF_UNIX, CInt(SOCK_SEQPACKET.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw BenchError("socketpair: \(String(cString: strerror(errno)))")
        }
        var pipeFds: [CInt] = [-1, -1]
        guard pipe(&pipeFds) == 0 else {
            let reason = String(cString: strerror(errno))
            close(pair[0])
            close(pair[1])
            throw BenchError("pipe: \(reason)")
        }
        // F_SETPIPE_SZ (1031; Glibc hides it behind _GNU_SOURCE): room for bursts.
        _ = fcntl(pipeFds[1], 1031, CInt(1 << 20))
        _ = fcntl(pair[1], F_SETFL, fcntl(pair[1], F_GETFL) | O_NONBLOCK)
        do {
            reactor = try Reactor()
        } catch {
            for fd in pair + pipeFds { close(fd) }
            throw BenchError("the event loop: \(error)")
        }
        packetSender = pair[0]
        packetReceiver = pair[1]
        framesRead = pipeFds[0]
        framesWrite = pipeFds[1]
    }

    /// Closes the receiving end of the packets and the writing end of the frames.
    func closeLoopEnds() {
        close(packetReceiver)
        close(framesWrite)
    }
}
