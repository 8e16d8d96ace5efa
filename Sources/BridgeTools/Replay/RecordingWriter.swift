import Bridge
#if canImport(Glibc)
import Glibc
#endif
import DaydreamCore
import Descriptors
import DaydreamProtocol
import Recording
import Timebase

/// `record FILE`: writes one controller's packets and link changes to a recording as they happen,
/// one `write(2)` per line, so an interrupted recording keeps everything up to the interruption.
///
/// Times are offsets from the first thing recorded (the controller connecting).
@MainActor
public final class RecordingWriter {
    /// The file written, or nil for standard output (which is not this writer's to close).
    private let file: FileDescriptor?
    private let descriptor: Int32
    private var origin: MonotonicTime?
    private var batteryObservation: DDControllerEventObservation?
    /// Packets written so far.
    public private(set) var packets = 0
    /// The offset of the last line written.
    public private(set) var duration = TimeSpan.zero
    /// Set when a write failed (disk full, pipe closed): the message, once.
    public private(set) var failure: String?

    /// Writes to `path` (created or truncated, mode 0644), or to standard output for `-`.
    public init(path: String) throws(TextFileError) {
        if path == "-" {
            file = nil
            descriptor = STDOUT_FILENO
        } else {
            let opened = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard opened >= 0 else { throw TextFileError(path: path, code: errno, action: "write") }
            file = FileDescriptor(owning: opened)
            descriptor = opened
        }
    }

    isolated deinit {
        batteryObservation?.cancel()
    }

    /// Writes the header and the controller's information, then follows it: every packet, every link
    /// change, every battery reading. `name` is the advertised name, `source` what made the recording.
    public func follow(_ controller: DDController, name: String?, source: String, at time: MonotonicTime) {
        origin = time
        let battery = controller.batteryLevel.map { Int(($0 * 100).rounded()) }
        let info = RecordingInfo(
            address: controller.address, name: name, manufacturer: controller.manufacturer, model: controller.modelNumber,
            serial: controller.serialNumber, hardware: controller.hardwareVersion, firmware: controller.firmwareVersion,
            software: controller.softwareVersion, battery: battery, recorded: Self.utcNow(), source: source
        )
        emit(RecordingFormat.formatPreamble(info))
        controller.packetHandler = { [weak self] _, packet, time in
            self?.write(.packet(packet), at: time)
        }
        controller.connectionChangedHandler = { [weak self] _, connected in
            self?.write(connected ? .connected : .disconnected, at: MonotonicTime.now())
        }
        batteryObservation = DDController.observeEvents { [weak self, weak controller] changed, event in
            guard event == .didUpdateBatteryLevel, changed === controller, let level = changed.batteryLevel else { return }
            self?.write(.battery(Int((level * 100).rounded())), at: MonotonicTime.now())
        }
    }

    /// Writes one entry at `time` (an offset from the start is computed here).
    public func write(_ event: RecordingEvent, at time: MonotonicTime) {
        let offset = max(time - (origin ?? time), duration)
        duration = offset
        if case .packet = event { packets += 1 }
        emit(RecordingFormat.formatEntry(RecordingEntry(time: offset, event: event)) + "\n")
    }

    private func emit(_ text: String) {
        guard failure == nil else { return }
        if !FileOutput.write(text, to: descriptor) {
            failure = String(cString: strerror(errno))
        }
    }

    private static func utcNow() -> String {
        var seconds = time(nil)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
