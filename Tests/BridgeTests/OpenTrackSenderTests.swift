import BridgeConfig
import DaydreamCore
import DaydreamProtocol
import Descriptors
import Glibc
import Testing
import Timebase
@testable import Bridge

/// The opentrack sender as a consumer of controller feeds, sending to a UDP socket of the
/// test's on 127.0.0.1: which controller it follows, and its zero.
@Suite("opentrack sender")
@MainActor
struct OpenTrackSenderTests {
    /// A UDP socket bound to 127.0.0.1 whose reads wait up to 5 s for a datagram.
    final class Listener {
        let descriptor: FileDescriptor
        let port: UInt16

        init() throws {
            let opened = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            try #require(opened >= 0)
            descriptor = FileDescriptor(owning: opened)
            var wait = timeval(tv_sec: 5, tv_usec: 0)
            try #require(setsockopt(opened, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size)) == 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(opened, $0, length) == 0 && getsockname(opened, $0, &length) == 0 }
            }
            try #require(bound)
            port = UInt16(bigEndian: address.sin_port)
        }

        /// The next datagram's pose, waiting for it; nil after 5 s without one.
        func nextPose() -> OpenTrackPose? {
            var buffer = [UInt8](repeating: 0, count: 64)
            let received = buffer.withUnsafeMutableBytes { recv(descriptor.rawValue, $0.baseAddress, $0.count, 0) }
            guard received == OpenTrackPose.datagramLength else { return nil }
            return OpenTrackPose.decode(buffer[0..<received])?.pose
        }

        /// Whether a datagram is waiting now.
        var hasWaiting: Bool {
            var byte: UInt8 = 0
            return recv(descriptor.rawValue, &byte, 1, Int32(MSG_DONTWAIT) | Int32(MSG_PEEK)) >= 0
        }
    }

    /// A packet turned `yaw` degrees right (whole orientation counts, 4095 a turn).
    static func packet(yawCounts: Int16) -> DaydreamPacket {
        DaydreamPacket(orientation: RawVector(0, -yawCounts, 0))
    }

    @Test func itFollowsTheFirstControllerOfferedOnly() throws {
        let listener = try Listener()
        let sender = try OpenTrackSender(OpenTrackConfiguration(sendTo: OpenTrackAddress(octets: [127, 0, 0, 1], port: listener.port)))
        let first = ControllerFeed(address: "c0:dd:ee:00:00:01"), second = ControllerFeed(address: "C0:DD:EE:00:00:02")
        sender.offer(first)
        sender.offer(second)
        sender.offer(first)  // a reconnection: still once
        #expect(sender.following == "C0:DD:EE:00:00:01")
        #expect(first.consumerCount == 1 && second.consumerCount == 0)
        second.receive(Self.packet(yawCounts: 100), at: .zero)
        first.receive(Self.packet(yawCounts: 0), at: .zero)
        #expect(listener.nextPose() == OpenTrackPose(yaw: 0, pitch: 0, roll: 0))
        #expect(!listener.hasWaiting, "the second controller sends nothing")
        #expect(sender.sent == 1 && sender.failed == 0)
    }

    @Test func itFollowsTheNamedControllerWhenOneIsNamed() throws {
        let listener = try Listener()
        let sender = try OpenTrackSender(OpenTrackConfiguration(
            sendTo: OpenTrackAddress(octets: [127, 0, 0, 1], port: listener.port), controller: "C0:DD:EE:00:00:02"))
        let first = ControllerFeed(address: "C0:DD:EE:00:00:01"), second = ControllerFeed(address: "C0:DD:EE:00:00:02")
        sender.offer(first)
        #expect(sender.following == nil)
        sender.offer(second)
        #expect(sender.following == "C0:DD:EE:00:00:02")
        #expect(first.consumerCount == 0 && second.consumerCount == 1)
    }

    @Test func recentringTakesTheNextPacketAsTheZero() throws {
        let listener = try Listener()
        let sender = try OpenTrackSender(OpenTrackConfiguration(sendTo: OpenTrackAddress(octets: [127, 0, 0, 1], port: listener.port)))
        let feed = ControllerFeed(address: "C0:DD:EE:00:00:01")
        sender.offer(feed)
        feed.receive(Self.packet(yawCounts: 0), at: .zero)
        feed.receive(Self.packet(yawCounts: 683), at: .zero)
        sender.recenter(address: "C0:DD:EE:00:00:02")  // another controller's: no change
        feed.receive(Self.packet(yawCounts: 683), at: .zero)
        sender.recenter(address: "c0:dd:ee:00:00:01")
        feed.receive(Self.packet(yawCounts: 683), at: .zero)
        feed.receive(Self.packet(yawCounts: 0), at: .zero)
        let yaws = (0..<5).map { _ in listener.nextPose()?.yaw ?? .nan }
        let expected = [0, 60.044, 60.044, 0, -60.044]
        #expect(zip(yaws, expected).allSatisfy { abs($0 - $1) < 0.001 }, "\(yaws)")
    }
}
