#if canImport(Glibc)
import Glibc
#endif
import EventVocabulary
import Mapping
import Recording
import Timebase
import VirtualDevice

/// `replay --print` and `run --print`: one line per event, `TIME [LABEL] DEVICE TYPE CODE VALUE`,
/// e.g. `1.013500 gamepad EV_KEY BTN_SOUTH 1`, with the time in seconds since `origin` and
/// libevdev's names; the label (a controller's address in `run --print`) only when not empty.
///
/// Every event is also checked by a recording `VirtualDeviceSet`, exactly as the real devices would check it:
/// an event for a device or code the devices would not have is reported on standard error and
/// counted, never thrown, so the printed stream stays whole.
public final class EventLineSink: OutputSink {
    private let descriptor: Int32
    private let checker: VirtualDeviceSet
    private let origin: MonotonicTime
    public var label = ""
    /// Events the devices would have refused.
    public private(set) var refused = 0

    /// Prints to `descriptor` (standard output by default), one `write(2)` per batch of events,
    /// checking against devices with `capabilities`. Times are printed from `origin`.
    public init(
        capabilities: Capabilities, gamepadIdentity: GamepadIdentity = .default, descriptor: Int32 = STDOUT_FILENO,
        origin: MonotonicTime = .zero
    ) throws(VirtualDeviceError) {
        self.descriptor = descriptor
        self.origin = origin
        checker = try VirtualDeviceSet.recording(capabilities: capabilities, gamepadIdentity: gamepadIdentity)
    }

    /// Says where the events go instead of devices.
    public var summary: [String] { ["printing events on standard output instead of creating devices"] }

    public func send(_ events: UnsafeBufferPointer<OutputEvent>, at time: MonotonicTime) {
        emit(events, at: time)
        do {
            try checker.send(events, at: time)
        } catch {
            refused += 1
            Self.log("the virtual devices would refuse this (a bug in the bridge): \(error)")
        }
        checker.removeAll()
    }

    /// Prints and releases whatever the devices would still hold by their own record.
    public func releaseAll(at time: MonotonicTime) {
        checker.removeAll()
        do {
            try checker.releaseAll()
        } catch {
            Self.log("the virtual devices would refuse the release (a bug in the bridge): \(error)")
        }
        emit(checker.events, at: time)
        checker.removeAll()
    }

    private func emit<Events: Collection<OutputEvent>>(_ events: Events, at time: MonotonicTime) {
        guard !events.isEmpty else { return }
        let relative = MonotonicTime(nanoseconds: time.nanoseconds - origin.nanoseconds)
        var text = ""
        for event in events {
            text += label.isEmpty
                ? Self.line(event, at: relative)
                : "\(RecordingFormat.formatTime(TimeSpan(nanoseconds: relative.nanoseconds))) \(label) \(EventCodeNames.line(event))"
            text += "\n"
        }
        FileOutput.write(text, to: descriptor)
    }

    /// Logs an error; the sink is only used on the main thread, as the session that feeds it.
    private static func log(_ message: String) {
        MainActor.assumeIsolated { Logger.error(message) }
    }

    /// One event as printed without a label, without the newline.
    public static func line(_ event: OutputEvent, at time: MonotonicTime) -> String {
        "\(RecordingFormat.formatTime(TimeSpan(nanoseconds: time.nanoseconds))) \(EventCodeNames.line(event))"
    }
}
