#if canImport(Glibc)
import Glibc
#endif
import Mapping
import Recording
import Timebase

/// `replay --print`: one line per event, `TIME DEVICE CODE VALUE`, e.g. `1.013500 gamepad BTN_SOUTH 1`,
/// with the time in seconds since the start of the recording and libevdev's code names.
@MainActor
public final class EventLineOutput: BridgeOutput {
    private let descriptor: Int32

    /// Prints to `descriptor` (standard output by default), one `write(2)` per batch of events.
    public init(descriptor: Int32 = STDOUT_FILENO) {
        self.descriptor = descriptor
    }

    public func send(_ events: [OutputEvent], at time: MonotonicTime) {
        var text = ""
        for event in events { text += Self.line(event, at: time) + "\n" }
        FileOutput.write(text, to: descriptor)
    }

    /// One event as printed, without the newline.
    public static func line(_ event: OutputEvent, at time: MonotonicTime) -> String {
        let stamp = RecordingFormat.formatTime(TimeSpan(nanoseconds: time.nanoseconds))
        return "\(stamp) \(event.device) \(EventNames.name(type: event.type, code: event.code)) \(event.value)"
    }
}
