import EventLoop
import Timebase
#if canImport(Glibc)
import Glibc
#endif

/// Reads the notifications of an `AcquireNotify` socket on the loop: one
/// `read` is one notification. The read buffer is allocated once, so the
/// path from a readable socket to `onPacket` allocates nothing.
@MainActor
final class NotificationStream {
    private let descriptor: Int32
    private var watch: IOWatch?
    private let buffer: UnsafeMutableRawBufferPointer
    private let onPacket: @MainActor (UnsafeRawBufferPointer, MonotonicTime) -> Void
    private let onClosed: @MainActor (String) -> Void

    /// Takes ownership of `descriptor` and starts reading it.
    init(
        descriptor: Int32, mtu: Int, reactor: Reactor,
        onPacket: @escaping @MainActor (UnsafeRawBufferPointer, MonotonicTime) -> Void,
        onClosed: @escaping @MainActor (String) -> Void
    ) throws(SystemCallError) {
        self.descriptor = descriptor
        self.onPacket = onPacket
        self.onClosed = onClosed
        buffer = .allocate(byteCount: max(mtu, 512), alignment: 8)
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        do {
            watch = try reactor.watch(descriptor, interest: .readable) { [weak self] events in
                self?.readable(events, now: reactor.now)
            }
        } catch {
            buffer.deallocate()
            _ = Glibc.close(descriptor)
            throw error
        }
    }

    isolated deinit {
        close()
        buffer.deallocate()
    }

    /// Stops reading and closes the socket.
    func close() {
        guard let watch else { return }
        watch.cancel()
        self.watch = nil
        _ = Glibc.close(descriptor)
    }

    private func readable(_ events: IOEvents, now: MonotonicTime) {
        // While the link is up, at most 16 packets a turn, so one controller cannot starve the
        // others (the watch is level-triggered: the rest is read next turn). After a hang-up,
        // everything still queued, so a press made just before the controller went away is not lost.
        let hungUp = !events.isDisjoint(with: [.hangup, .error])
        var budget = hungUp ? Int.max : 16
        while budget > 0 {
            budget -= 1
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count > 0 {
                onPacket(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), now)
                continue
            }
            if count == 0 {
                finish("the notification socket closed (controller disconnected)")
                return
            }
            let error = errno
            if error == EAGAIN || error == EWOULDBLOCK { break }
            if error == EINTR { continue }
            finish("reading notifications failed: \(SystemCallError("read", code: error))")
            return
        }
        if hungUp {
            finish("the notification socket hung up (controller disconnected)")
        }
    }

    private func finish(_ reason: String) {
        guard watch != nil else { return }
        close()
        onClosed(reason)
    }
}
