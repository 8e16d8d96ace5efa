#if canImport(Glibc)
import Glibc
#endif
import Mapping
import Recording
import Timebase
import VirtualDevice

/// `replay --print`: one line per event, `TIME DEVICE TYPE CODE VALUE`, e.g.
/// `1.013500 gamepad EV_KEY BTN_SOUTH 1`, with the time in seconds since the start of the
/// recording and libevdev's names.
///
/// Every event is also checked by a `RecordingSink`, exactly as the real devices would check it:
/// an event for a device or code the devices would not have is reported on standard error.
@MainActor
public final class EventLineOutput: BridgeOutput {
    private let descriptor: Int32
    private let checker: RecordingSink
    /// Events the devices would have refused.
    public private(set) var refused = 0

    /// Prints to `descriptor` (standard output by default), one `write(2)` per batch of events,
    /// checking against devices with `capabilities`.
    public init(capabilities: Capabilities, gamepadIdentity: GamepadIdentity = .default, descriptor: Int32 = STDOUT_FILENO) throws(VirtualDeviceError) {
        self.descriptor = descriptor
        checker = try RecordingSink(capabilities: capabilities, gamepadIdentity: gamepadIdentity)
    }

    public func send(_ events: [OutputEvent], at time: MonotonicTime) {
        var text = ""
        for event in events { text += Self.line(event, at: time) + "\n" }
        FileOutput.write(text, to: descriptor)
        do {
            try checker.send(events)
        } catch {
            refused += 1
            Logger.error("the virtual devices would refuse this (a bug in the bridge): \(error)")
        }
        checker.removeAll()
    }

    /// One event as printed, without the newline.
    public static func line(_ event: OutputEvent, at time: MonotonicTime) -> String {
        "\(RecordingFormat.formatTime(TimeSpan(nanoseconds: time.nanoseconds))) \(EventCodeNames.line(event))"
    }
}
