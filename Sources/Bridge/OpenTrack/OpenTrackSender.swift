#if canImport(Glibc)
import Glibc
#endif
import BridgeConfig
import DaydreamCore
import DaydreamProtocol
import Descriptors
import Timebase

/// `[opentrack]`: sends one controller's orientation to opentrack as a head tracker, one
/// datagram for each of its packets (`OpenTrackPose`), relative to a zero taken from its first
/// packet and again after each recentring.
///
/// A `ControllerConsumer` of its own, attached to the feed of the controller it follows (the
/// one `[opentrack] controller` names, else the first that arrives). It runs on the daemon's
/// loop: the socket never blocks, and a packet allocates nothing. A datagram that cannot go
/// (nobody listening, a full buffer) is counted, never fatal: the first is logged, the rest
/// only counted (with nobody listening, every other send fails, so a "works again" would flap).
@MainActor
public final class OpenTrackSender: ControllerConsumer {
    /// Where the datagrams go.
    public let destination: OpenTrackAddress
    /// The controller named in the config, upper case; nil follows the first.
    public let named: String?
    /// The controller followed once one arrived, upper case.
    public private(set) var following: String?
    /// Datagrams sent, and those the kernel refused.
    public private(set) var sent = 0
    public private(set) var failed = 0

    private let socket: OpenTrackSocket
    @exclusivity(unchecked) private var zero: Quaternion?
    /// Whether a failure was logged.
    private var reported = false

    /// A sender to `configuration.sendTo`; throws when the socket cannot be made.
    public init(_ configuration: OpenTrackConfiguration) throws(SystemCallError) {
        destination = configuration.sendTo
        named = configuration.controller
        socket = try OpenTrackSocket(connectingTo: configuration.sendTo)
    }

    /// Follows `feed` when it is the named controller or, with none named, the first offered;
    /// again for the same controller (a reconnection) changes nothing.
    public func offer(_ feed: ControllerFeed) {
        let address = feed.address.uppercased()
        if let following {
            if following == address { feed.attach(self) }
            return
        }
        guard named == nil || named == address else { return }
        following = address
        feed.attach(self)
        Logger.info("opentrack: sending \(address)'s orientation to \(destination)")
    }

    /// Takes the next packet's orientation as the zero: the recentring of the controller at
    /// `address` (the mapping session's, which the `"recenter"` action and command cause).
    public func recenter(address: String) {
        guard address.uppercased() == following else { return }
        zero = nil
    }

    public func receive(_ packet: DaydreamPacket, at time: MonotonicTime) {
        let orientation = Quaternion(rotationVector: packet.rotationVector)
        guard let zero else {
            self.zero = orientation
            return send(OpenTrackPose(yaw: 0, pitch: 0, roll: 0))
        }
        send(OpenTrackPose(orientation, zero: zero))
    }

    public func linkChanged(connected: Bool, at time: MonotonicTime) {}

    @inline(__always)
    private func send(_ pose: OpenTrackPose) {
        let code = pose.withDatagram { socket.send($0) }
        if code == 0 {
            sent += 1
        } else {
            failed += 1
            if !reported { report(code) }
        }
    }

    @inline(never)
    private func report(_ code: Int32) {
        reported = true
        let reason = code == ECONNREFUSED ? "nobody listens there (is opentrack's \"UDP over network\" input started?)"
            : String(cString: strerror(code))
        Logger.notice("opentrack: a datagram to \(destination) did not go: \(reason); the bridge sends on and counts, not logs, the next")
    }
}
