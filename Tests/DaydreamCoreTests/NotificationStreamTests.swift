@testable import DaydreamCore
import DaydreamProtocol
import Descriptors
import EventLoop
import Testing
import Timebase
#if canImport(Glibc)
import Glibc
#endif

/// The AcquireNotify reader on a real SOCK_SEQPACKET socketpair.
@MainActor
@Suite struct NotificationStreamTests {
    /// What the stream's feed handed on: each packet's last byte (its status byte). The feed
    /// holds its consumer, so the consumer is an object of its own, not this one (which holds
    /// the feed): no cycle to leak.
    @MainActor
    final class Received {
        let feed = ControllerFeed(address: "C0:DD:EE:00:00:01")
        private let statuses = Statuses()
        var lastBytes: [UInt8] { statuses.bytes }
        var closedReason: String?

        init() { feed.attach(statuses) }

        final class Statuses: ControllerConsumer {
            var bytes: [UInt8] = []
            func receive(_ packet: DaydreamPacket, at time: MonotonicTime) { bytes.append(packet.status) }
            func linkChanged(connected: Bool, at time: MonotonicTime) {}
        }
    }

    @Test func everythingQueuedBeforeAHangUpIsDelivered() throws {
        let reactor = try Reactor()
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0)
        let controller = FileDescriptor(owning: ends[1])
        let received = Received()
        let stream = try NotificationStream(
            socket: FileDescriptor(owning: ends[0]), mtu: 23, reactor: reactor,
            feed: received.feed,
            onClosed: { received.closedReason = $0 }
        )
        // The pair is close-on-exec: a child process another test starts meanwhile must not keep
        // the controller's end open, or the hang-up this test waits for would not come while that
        // child runs. More than one turn's budget is queued when the controller goes away.
        for index in 0..<40 {
            let packet = [UInt8](repeating: UInt8(index), count: 20)
            #expect(packet.withUnsafeBytes { write(controller.rawValue, $0.baseAddress, $0.count) } == 20)
        }
        try? controller.close()  // the hang-up
        let end = MonotonicTime.now() + .seconds(5)
        while received.closedReason == nil, MonotonicTime.now() < end {
            reactor.runOnce(timeout: .milliseconds(50))
        }
        #expect(received.lastBytes == Array(0..<40))
        #expect(received.closedReason != nil)
        stream.close()
    }

    /// bluetoothd logged "sendmsg: Connection reset by peer" when the bridge closed the socket
    /// with notifications unread: closing a unix socket with data in its queue resets the
    /// connection. Read empty first, the peer sees a plain end (EPIPE).
    @Test func closingReadsTheSocketEmptySoThePeerSeesAPlainEnd() throws {
        let reactor = try Reactor()
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0)
        let controller = FileDescriptor(owning: ends[1])
        let stream = try NotificationStream(
            socket: FileDescriptor(owning: ends[0]), mtu: 23, reactor: reactor, feed: ControllerFeed(address: "C0:DD:EE:00:00:01"), onClosed: { _ in })
        let packet = [UInt8](repeating: 7, count: 20)
        for _ in 0..<3 {
            #expect(packet.withUnsafeBytes { send(controller.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == 20)
        }
        stream.close()
        let sent = packet.withUnsafeBytes { send(controller.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        let error = errno
        #expect(sent == -1)
        #expect(error == EPIPE, "errno \(error) (ECONNRESET is \(ECONNRESET))")
    }

    /// A descriptor the loop refuses (epoll takes no regular files or /dev/null) is a thrown
    /// error, and the half-made stream frees its buffer once: freed twice, as it was, glibc
    /// aborts the process here ("double free detected").
    @Test func aDescriptorTheLoopCannotWatchIsAnError() throws {
        let reactor = try Reactor()
        for _ in 0..<2 {
            let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)  // the stream owns it, even when it throws
            try #require(descriptor >= 0)
            #expect(throws: SystemCallError.self) {
                _ = try NotificationStream(
                    socket: FileDescriptor(owning: descriptor), mtu: 23, reactor: reactor, feed: ControllerFeed(address: "C0:DD:EE:00:00:01"), onClosed: { _ in })
            }
        }
    }

    @Test func whileLinkedEachTurnTakesOneNotification() throws {
        let reactor = try Reactor()
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0)
        let controller = FileDescriptor(owning: ends[1])
        defer { withExtendedLifetime(controller) {} }  // open to the end: no hang-up here
        let received = Received()
        let stream = try NotificationStream(
            socket: FileDescriptor(owning: ends[0]), mtu: 23, reactor: reactor,
            feed: received.feed,
            onClosed: { received.closedReason = $0 }
        )
        defer { stream.close() }
        for index in 0..<3 {
            let packet = [UInt8](repeating: UInt8(index), count: 20)
            #expect(packet.withUnsafeBytes { write(controller.rawValue, $0.baseAddress, $0.count) } == 20)
        }
        // One read(2) a turn; the level-triggered watch brings the loop back for the rest.
        for expected in 1...3 {
            reactor.runOnce(timeout: .milliseconds(500))
            #expect(received.lastBytes == Array(0..<UInt8(expected)))
        }
        #expect(reactor.runOnce(timeout: .zero) == 0)
        #expect(received.closedReason == nil)
    }
}
