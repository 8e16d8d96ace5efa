import Descriptors
import EventLoop
import Timebase
#if canImport(Glibc)
import Glibc
#endif

/// Reads the notifications of an `AcquireNotify` socket on the loop: one
/// `read` is one notification, handed straight to the controller's feed. The
/// read buffer is allocated once, so the path from a readable socket to the
/// feed allocates nothing, and a packet costs one `read(2)`.
///
/// The link watches `lastReceived` for silence, and stops delivery
/// (`delivers = false`) while it doubts the link: notifications are then read
/// and counted in `lastReceived`, but not passed on unless the link resumes on one.
@MainActor
final class NotificationStream {
    /// When the last notification was read (the stream's start before the first).
    private(set) var lastReceived: MonotonicTime
    /// Whether notifications go to the feed; when false they are read and announced
    /// to `onUndelivered`, and dropped unless that turned delivery back on.
    var delivers = true
    /// Called for each notification read while `delivers` is false, before it is dropped.
    var onUndelivered: (@MainActor () -> Void)?
    /// The socket, owned until `close()`.
    private var socket: FileDescriptor?
    /// Its number, for the read of every notification: a `let`, so that read touches no `var`.
    private let descriptor: Int32
    private var watch: IOWatch?
    private let buffer: UnsafeMutableRawBufferPointer
    /// Where notifications go. Held, not weak (no weak load per packet), and no cycle: the
    /// feed holds neither the link nor the stream.
    private let feed: ControllerFeed
    private let onClosed: @MainActor (String) -> Void

    /// Takes ownership of `socket` and starts reading it.
    init(
        socket: consuming FileDescriptor, mtu: Int, reactor: Reactor,
        feed: ControllerFeed,
        onClosed: @escaping @MainActor (String) -> Void
    ) throws(SystemCallError) {
        let descriptor = socket.rawValue
        self.descriptor = descriptor
        self.socket = consume socket
        self.feed = feed
        self.onClosed = onClosed
        lastReceived = reactor.now
        buffer = .allocate(byteCount: max(mtu, 512), alignment: 8)
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        // Unowned, not weak (a weak reference would make every retain of the stream take the
        // slow path): `deinit` cancels the watch, and the reactor never calls a cancelled watch.
        // Every stored property is set by now, so `deinit` runs when this throws: it frees the
        // buffer, and the socket's owner closes the socket.
        watch = try reactor.watch(descriptor, interest: .readable) { [unowned self] events in
            readable(events, now: MonotonicTime.now())
        }
    }

    isolated deinit {
        close()
        buffer.deallocate()
    }

    /// Stops reading and closes the socket, once it is read empty: closing it with
    /// notifications unread resets the connection, and bluetoothd's next `sendmsg`
    /// fails with ECONNRESET ("Connection reset by peer") instead of seeing a clean end.
    /// What is read here is dropped.
    func close() {
        guard let watch else { return }
        watch.cancel()
        self.watch = nil
        while retryingOnInterrupt({ read(descriptor, buffer.baseAddress, buffer.count) }) > 0 {}
        // A socket's close fails only for a bad descriptor, which an owned one is not.
        try? socket.take()?.close()
    }

    /// Reads every notification queued now (delivered when `delivers`), so that a
    /// silence is judged on what has arrived, not on when the loop last looked.
    func readQueued() {
        guard watch != nil else { return }
        readable([], now: MonotonicTime.now(), untilEmpty: true)
    }

    private func readable(_ events: IOEvents, now: MonotonicTime, untilEmpty: Bool = false) {
        // While the link is up, one notification a turn. The watch is level-triggered, so one
        // still queued brings the loop straight back; a controller's packets come one at a time,
        // so reading on until EAGAIN would cost a second read(2) per packet that finds nothing.
        // One a turn also keeps one controller from starving the others. After a hang-up,
        // everything still queued, so a press made just before the controller went away is not lost.
        let hungUp = !events.isDisjoint(with: [.hangup, .error])
        var readsAnother = true
        while readsAnother {
            let count = retryingOnInterrupt { read(descriptor, buffer.baseAddress, buffer.count) }
            if count > 0 {
                lastReceived = now
                // The link may resume on this notification (after a silence): then it is delivered.
                if !delivers { onUndelivered?() }
                if delivers { feed.receive(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), at: now) }
                readsAnother = hungUp || untilEmpty
                continue
            }
            if count == 0 {
                finish("the notification socket closed (controller disconnected)")
                return
            }
            let error = errno
            if error == EAGAIN || error == EWOULDBLOCK { break }
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
