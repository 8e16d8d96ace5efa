import DaydreamProtocol
import Timebase

/// The text form of a recording, version 1.
///
/// ```
/// # daydream-bridge recording v1
/// address C0:DD:EE:00:00:01
/// name Daydream controller
/// firmware 1.0.8
/// battery 87
/// # time       event
/// 0.000000 5BEBFFB825FDB000041000B00000000000000000
/// 0.013500 480BFE87EB00E801841000B00000000191FBA008
/// 2.000000 disconnected
/// 3.250000 connected
/// 3.260000 battery 86
/// ```
///
/// - The first line is the header; its number is the version. A reader refuses versions newer than its own.
/// - Lines starting with `#` after it are comments; blank lines are ignored; a `\r` before the newline is allowed.
/// - A line starting with a letter is device information, `key value`: the keys of `RecordingInfo`
///   (`address`, `name`, `family`, `manufacturer`, `model`, `serial`, `hardware`, `firmware`, `software`,
///   `battery`, `recorded`, `source`). Unknown keys are kept, not refused, so newer recordings still replay.
///   `family` (`daydream`, `gear-vr`, `oculus-go`) says how the packets decode; without it, a Daydream's.
/// - A line starting with a digit is a timed entry: seconds since the start of the recording
///   (a decimal with up to 9 fraction digits; written with 6, microseconds), whitespace, then either
///   the packet's bytes in hex (a Daydream's 20 as 40 digits, a Gear VR's 60 as 120), or
///   `connected`, `disconnected`, or `battery PERCENT`.
///   Times never decrease.
public enum RecordingFormat {
    /// The version this program writes and the newest it reads.
    public static let version = 1
    /// The header line without its version number.
    public static let headerPrefix = "# daydream-bridge recording v"
    /// The header line this program writes.
    public static var header: String { "\(headerPrefix)\(version)" }

    /// Information keys in the order they are written.
    public static let infoKeys = [
        "address", "name", "family", "manufacturer", "model", "serial", "hardware", "firmware", "software",
        "battery", "recorded", "source",
    ]

    /// `seconds.micro`: a time offset as written, e.g. `1.013500`; negative spans are written as 0.
    public static func formatTime(_ span: TimeSpan) -> String {
        let microseconds = max(span.nanoseconds, 0) / 1_000
        let whole = microseconds / 1_000_000
        let fraction = String(microseconds % 1_000_000)
        return "\(whole).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
    }

    /// The text of one event after its time: 40 hex digits, `connected`, `disconnected` or `battery N`.
    public static func formatEvent(_ event: RecordingEvent) -> String {
        switch event {
        case .packet(let packet): Hex.encode(packet.bytes)
        case .connected: "connected"
        case .disconnected: "disconnected"
        case .battery(let percent): "battery \(percent)"
        }
    }

    /// One timed line, without the newline.
    public static func formatEntry(_ entry: RecordingEntry) -> String {
        "\(formatTime(entry.time)) \(formatEvent(entry.event))"
    }

    /// The header and information lines, each ending in a newline.
    public static func formatPreamble(_ info: RecordingInfo) -> String {
        var text = header + "\n"
        for (key, value) in infoLines(info) {
            text += "\(key) \(value)\n"
        }
        let length = info.controllerFamily.gatt.packetLength
        text += "# time (s) and packet (\(length) bytes in hex), or connected, disconnected, battery PERCENT\n"
        return text
    }

    /// The whole recording as text.
    public static func format(_ recording: Recording) -> String {
        var text = formatPreamble(recording.info)
        for entry in recording.entries {
            text += formatEntry(entry) + "\n"
        }
        return text
    }

    /// The information as `(key, value)` pairs in writing order, empty fields left out.
    /// Values are written on one line: newlines in them become spaces. A value that is
    /// nothing but spaces and line breaks is left out too: `key` alone would not read back.
    static func infoLines(_ info: RecordingInfo) -> [(String, String)] {
        let values: [String?] = [
            info.address, info.name, info.family?.name, info.manufacturer, info.model, info.serial, info.hardware,
            info.firmware, info.software, info.battery.map(String.init), info.recorded, info.source,
        ]
        var lines: [(String, String)] = []
        for (key, value) in zip(infoKeys, values) {
            if let value, case let line = oneLine(value), !line.isEmpty { lines.append((key, line)) }
        }
        for field in info.extra {
            let line = oneLine(field.value)
            if !line.isEmpty { lines.append((field.key, line)) }
        }
        return lines
    }

    /// `text` on one line: every line-break scalar becomes a space, then leading and trailing
    /// spaces and tabs go. Scalar by scalar, not by `Character`: a line break followed by a
    /// combining mark is one `Character`, and the reader works on bytes.
    private static func oneLine(_ text: String) -> String {
        var scalars = String.UnicodeScalarView(text.unicodeScalars.map { isLineBreak($0) ? " " : $0 })
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }

    /// LF, VT, FF, CR, NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR.
    private static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
