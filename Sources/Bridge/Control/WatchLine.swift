import DaydreamProtocol
import Recording
import Timebase

/// One line of the daemon's `watch` stream: `ADDRESS SECONDS EVENT`.
public struct WatchLine: Equatable, Sendable {
    /// What happened.
    public enum Event: Equatable, Sendable {
        /// A packet, as its 20 bytes.
        case packet([UInt8])
        /// The link came up.
        case connected
        /// The link went down.
        case disconnected
        /// A battery level, in percent.
        case battery(Int)
        /// The controller's profile is now this one.
        case profile(String)
        /// An output event, as `DEVICE TYPE CODE VALUE` (`gamepad EV_KEY BTN_SOUTH 1`).
        case output(String)
    }

    /// The controller's address.
    public var address: String
    /// Seconds since the stream began.
    public var time: TimeSpan
    /// What happened.
    public var event: Event

    /// Parses one line; nil for one that is not a watch line (a newer daemon's, say).
    public init?(_ line: Substring) {
        let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard words.count == 3, let seconds = Double(words[1]) else { return nil }
        address = String(words[0])
        time = .seconds(seconds)
        let rest = words[2]
        switch rest {
        case "connected": event = .connected
        case "disconnected": event = .disconnected
        default:
            if rest.hasPrefix("battery "), let percent = Int(rest.dropFirst(8)) {
                event = .battery(percent)
            } else if rest.hasPrefix("profile ") {
                event = .profile(String(rest.dropFirst(8)))
            } else if rest.hasPrefix("event ") {
                event = .output(String(rest.dropFirst(6)))
            } else if let bytes = Hex.decode(String(rest)), bytes.count == PacketLayout.length {
                event = .packet(bytes)
            } else {
                return nil
            }
        }
    }
}
