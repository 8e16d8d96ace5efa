import DaydreamProtocol
import Recording
import Timebase

/// One line of the daemon's `watch` stream: `ADDRESS SECONDS EVENT`; the bridge's own events
/// (a config reload) have `bridge` for the address.
public struct WatchLine: Equatable, Sendable {
    /// The address word of the bridge's own lines, which are no controller's.
    public static let bridgeAddress = "bridge"

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
        /// The gyro bias now applied (stored, calibrated or auto-calibrated), deg/s about x, y, z.
        case gyroBias(Vector3)
        /// The bridge read its config again: `config reloaded`, `config unchanged`, or
        /// `config kept REASONS` (the errors, on one line, for which the running config stays).
        case config(ConfigReload.Outcome)
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
            } else if rest.hasPrefix("gyro-bias ") {
                let degrees = rest.dropFirst(10).split(separator: " ").compactMap { Double($0) }
                guard degrees.count == 3, degrees.allSatisfy(\.isFinite) else { return nil }
                event = .gyroBias(Vector3(x: degrees[0], y: degrees[1], z: degrees[2]))
            } else if rest.hasPrefix("config "), let outcome = Self.configOutcome(rest.dropFirst(7)) {
                event = .config(outcome)
            } else if let bytes = Hex.decode(String(rest)), bytes.count == PacketLayout.length {
                event = .packet(bytes)
            } else {
                return nil
            }
        }
    }

    /// `config reloaded`, `config unchanged`, `config kept REASONS`: the reasons joined with
    /// " / ", each line break a space, so the line stays one line.
    public static func configText(_ outcome: ConfigReload.Outcome) -> String {
        switch outcome {
        case .reloaded: return "config reloaded"
        case .unchanged: return "config unchanged"
        case .kept(let reasons):
            let oneLine = reasons.map { String($0.map { $0.isNewline ? " " : $0 }) }
            return "config kept " + oneLine.joined(separator: " / ")
        }
    }

    /// The outcome a `config` line's words say; the reasons come back as one.
    private static func configOutcome(_ words: Substring) -> ConfigReload.Outcome? {
        switch words {
        case "reloaded": return .reloaded
        case "unchanged": return .unchanged
        default: return words.hasPrefix("kept ") ? .kept(reasons: [String(words.dropFirst(5))]) : nil
        }
    }

    /// `gyro-bias X Y Z` for a bias in rad/s: deg/s to a thousandth, as the line says it.
    public static func gyroBiasText(_ bias: Vector3) -> String {
        let degrees = [bias.x, bias.y, bias.z].map { String(($0 * 180 / Double.pi * 1000).rounded() / 1000) }
        return "gyro-bias " + degrees.joined(separator: " ")
    }
}
