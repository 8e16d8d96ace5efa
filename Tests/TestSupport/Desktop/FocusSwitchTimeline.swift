import Foundation

/// When a desktop's focus change reaches the bridge, told apart from what the bridge does with it:
/// `busctl monitor` on the session's bus stamps every message as it passes (CLOCK_REALTIME, in
/// microseconds), so the call that moves the focus (or the moment a window is closed), the
/// desktop's `SetFocusedApplication` call to the bridge, and the bridge's `PropertiesChanged`
/// for the controller's new `Profile` are timed on one clock.
public final class FocusSwitchTimeline {
    private let monitor: RunningBinary

    /// One switch: from the change to the desktop's call (the desktop's part), and from that call
    /// to the bridge announcing the new profile (the bridge's part), in milliseconds.
    public struct Switch: CustomStringConvertible {
        public let desktop: Double
        public let bridge: Double
        public var description: String { String(format: "%.1f + %.1f ms", desktop, bridge) }
    }

    /// `busctl --user monitor` as the session's user, in its environment; ready when it returns.
    public init(directory: String, environment: [String: String]) throws {
        monitor = try DesktopSession.runAsUser("/usr/bin/busctl", ["--user", "monitor", "--json=short"],
                                              directory: directory, name: "busctl-monitor", environment: environment)
        guard monitor.waitFor(timeout: 10, { (monitor.stdout + monitor.stderr).contains("Monitoring bus message stream") }) else {
            throw TestFailure("busctl monitor did not start: \(monitor.stderr)")
        }
    }

    /// The wall clock now, in the monitor's microseconds.
    public static var now: Int64 { Int64(Date().timeIntervalSince1970 * 1_000_000) }

    /// The message stamps seen so far: (stamp, member, whether it is the bridge's Profile change).
    private var messages: [(time: Int64, member: String, line: String)] {
        monitor.stdout.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("{"), let data = line.data(using: .utf8),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let time = (object["timestamp-realtime"] as? NSNumber)?.int64Value else { return nil }
            return (time, object["member"] as? String ?? "", String(line))
        }
    }

    /// The switch after `start` (a stamp): the first `SetFocusedApplication` call after the first
    /// message named `startMember` at or after `start` (or `start` itself when nil), then the first
    /// `PropertiesChanged` carrying `Profile` after that call; nil until all were seen.
    public func switchAfter(_ start: Int64, startMember: String?) -> Switch? {
        let seen = messages
        let changeTime: Int64
        if let startMember {
            guard let call = seen.first(where: { $0.time >= start && $0.member == startMember }) else { return nil }
            changeTime = call.time
        } else {
            changeTime = start
        }
        guard let set = seen.first(where: { $0.time >= changeTime && $0.member == "SetFocusedApplication" }),
              let announced = seen.first(where: {
                  $0.time >= set.time && $0.member == "PropertiesChanged" && $0.line.contains("\"Profile\"")
              }) else { return nil }
        return Switch(desktop: Double(set.time - changeTime) / 1000, bridge: Double(announced.time - set.time) / 1000)
    }

    /// Waits up to 10 s for `switchAfter`.
    public func waitForSwitch(after start: Int64, startMember: String?) -> Switch? {
        var found: Switch?
        _ = monitor.waitFor(timeout: 10) {
            found = switchAfter(start, startMember: startMember)
            return found != nil
        }
        return found
    }

    public func stop() {
        monitor.stop()
    }
}
