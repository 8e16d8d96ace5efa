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
    private let origin: MonotonicTime
    private var optionalLabel: String?
    /// Events the devices would have refused.
    public private(set) var refused = 0

    /// Prints to `descriptor` (standard output by default), one `write(2)` per batch of events,
    /// checking against devices with `capabilities`. Times are printed from `origin`; `label`
    /// (a controller's address in `run --print`) goes after the time when given.
    public init(
        capabilities: Capabilities, gamepadIdentity: GamepadIdentity = .default, descriptor: Int32 = STDOUT_FILENO,
        origin: MonotonicTime = .zero, label: String? = nil
    ) throws(VirtualDeviceError) {
        self.descriptor = descriptor
        self.origin = origin
        optionalLabel = label
        checker = try RecordingSink(capabilities: capabilities, gamepadIdentity: gamepadIdentity)
    }

    /// The label printed after the time (empty when none).
    public var label: String {
        get { optionalLabel ?? "" }
        set { optionalLabel = newValue.isEmpty ? nil : newValue }
    }

    /// Prints and releases whatever the devices would still hold by their own record.
    public func releaseHeld(at time: MonotonicTime) {
        checker.removeAll()
        do {
            try checker.releaseAll()
        } catch {
            Logger.error("the virtual devices would refuse the release (a bug in the bridge): \(error)")
        }
        emit(checker.events, at: time)
        checker.removeAll()
    }

    public func send(_ events: [OutputEvent], at time: MonotonicTime) {
        emit(events, at: time)
        do {
            try checker.send(events)
        } catch {
            refused += 1
            Logger.error("the virtual devices would refuse this (a bug in the bridge): \(error)")
        }
        checker.removeAll()
    }

    private func emit(_ events: [OutputEvent], at time: MonotonicTime) {
        guard !events.isEmpty else { return }
        let relative = MonotonicTime(nanoseconds: time.nanoseconds - origin.nanoseconds)
        var text = ""
        for event in events {
            text += optionalLabel.map { "\(RecordingFormat.formatTime(TimeSpan(nanoseconds: relative.nanoseconds))) \($0) \(EventCodeNames.line(event))" }
                ?? Self.line(event, at: relative)
            text += "\n"
        }
        FileOutput.write(text, to: descriptor)
    }

    /// One event as printed, without the newline.
    public static func line(_ event: OutputEvent, at time: MonotonicTime) -> String {
        "\(RecordingFormat.formatTime(TimeSpan(nanoseconds: time.nanoseconds))) \(EventCodeNames.line(event))"
    }
}
