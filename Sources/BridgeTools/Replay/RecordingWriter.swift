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
/// Times are offsets from the first thing recorded (the controller connecting). A
/// `ControllerConsumer` of the controller's feed: it writes the notifications as the link read them.
@MainActor
public final class RecordingWriter: ControllerConsumer {
    /// The file written, or nil for standard output (which is not this writer's to close).
    private let file: FileDescriptor?
    private let descriptor: Int32
    private var origin: MonotonicTime?
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

    /// Writes the header and the controller's information, then follows its feed: every packet, every
    /// link change, every battery reading. `name` is the advertised name, `source` what made the recording.
    public func follow(_ feed: ControllerFeed, name: String?, source: String, at time: MonotonicTime) {
        origin = time
        let device = feed.deviceInformation
        let info = RecordingInfo(
            address: feed.address, name: name, manufacturer: device.manufacturer, model: device.modelNumber,
            serial: device.serialNumber, hardware: device.hardwareVersion, firmware: device.firmwareVersion,
            software: device.softwareVersion, battery: feed.batteryPercent, recorded: Self.utcNow(), source: source,
            family: feed.family.id == .daydream ? nil : feed.family.id
        )
        emit(RecordingFormat.formatPreamble(info))
        feed.attach(self)
    }

    /// Writes a packet; a notification that is not one is left out (a recording holds packets).
    /// A packet of several samples is written once, whole, when its last sample arrives.
    public func receive(_ packet: DaydreamPacket, at time: MonotonicTime) {
        guard packet.isLatestSample else { return }
        write(.packet(packet), at: time)
    }

    public func linkChanged(connected: Bool, at time: MonotonicTime) {
        write(connected ? .connected : .disconnected, at: time)
    }

    public func batteryChanged(percent: Int, at time: MonotonicTime) {
        write(.battery(percent), at: time)
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
