import DaydreamProtocol
import Timebase

/// One problem in a recording's text, at a 1-based line and column (columns count bytes).
public struct RecordingDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column, from 1.
    public var column: Int
    /// What is wrong, and what was expected.
    public var message: String

    /// A diagnostic at a position.
    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// `line:column: message`.
    public var description: String { "\(line):\(column): \(message)" }
}

/// A recording that cannot be read: every problem found, in order (at most `RecordingParser.maximumDiagnostics`).
public struct RecordingParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The problems.
    public var diagnostics: [RecordingDiagnostic]

    /// An error with its problems.
    public init(diagnostics: [RecordingDiagnostic]) {
        self.diagnostics = diagnostics
    }

    /// One line per problem, `line:column: message`.
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }

    /// One line per problem, `FILE:line:column: message`.
    public func describe(file: String) -> String {
        diagnostics.map { "\(file):\($0)" }.joined(separator: "\n")
    }
}

/// Reads the text form of a recording (see `RecordingFormat`).
///
/// It is tolerant of what does not change the meaning (comments, blank lines, CRLF, spaces and tabs,
/// lower-case hex, a byte-order mark, unknown information keys, a trailing `# comment` on a line)
/// and strict about what does: every bad line is reported with its position, and nothing is returned then.
public enum RecordingParser {
    /// Parsing stops after this many problems.
    public static let maximumDiagnostics = 20

    /// Parses a whole recording.
    public static func parse(_ text: String) throws(RecordingParseError) -> Recording {
        var state = ParserState()
        var entries: [RecordingEntry] = []
        // An empty text is one empty line, which fails the header check.
        for rawLine in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if let entry = state.read(rawLine: rawLine) { entries.append(entry) }
            if !state.canGoOn { break }
        }
        guard state.diagnostics.isEmpty else { throw RecordingParseError(diagnostics: state.diagnostics) }
        var recording = state.recording
        recording.entries = entries
        return recording
    }
}

/// The parser's progress through the lines: the header, the information so far (in `recording`,
/// whose entries stay empty: they go to the caller one at a time) and the problems found.
struct ParserState {
    var recording = Recording()
    var diagnostics: [RecordingDiagnostic] = []
    /// The line being read, from 1; 0 before the first.
    var lineNumber = 0
    /// The time of the last entry read, which the next may not be before.
    var previousTime: TimeSpan?
    /// False once the rest cannot be read: the header is bad, or there are enough problems.
    var canGoOn = true

    static let notARecording =
        "not a daydream-bridge recording: the first line must be '\(RecordingFormat.header)'"

    mutating func fail(_ column: Int, _ message: String) {
        diagnostics.append(RecordingDiagnostic(line: lineNumber, column: column, message: message))
    }

    /// Reads the next line, without its `\n`: the header first (after a byte-order mark), then
    /// information or a timed entry; a `\r` at its end is dropped. The entry on it, if any.
    mutating func read(rawLine: some Collection<UInt8>) -> RecordingEntry? {
        guard canGoOn else { return nil }
        lineNumber += 1
        var line = Array(rawLine)
        if lineNumber == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        var entry: RecordingEntry?
        if lineNumber == 1 {
            if !readHeader(line) { canGoOn = false }
        } else {
            entry = readLine(line)
        }
        if diagnostics.count >= RecordingParser.maximumDiagnostics { canGoOn = false }
        return entry
    }

    /// Counts a line too long to be read (see `RecordingLineReader.refuseLine`) as a problem.
    mutating func refuseLine(longerThan limit: Int) {
        guard canGoOn else { return }
        lineNumber += 1
        fail(1, lineNumber == 1 ? Self.notARecording : "line longer than \(limit) bytes; a recording's lines are short")
        if lineNumber == 1 || diagnostics.count >= RecordingParser.maximumDiagnostics { canGoOn = false }
    }

    /// Reads line 1; false when the rest cannot be read.
    mutating func readHeader(_ line: [UInt8]) -> Bool {
        let prefix = Array(RecordingFormat.headerPrefix.utf8)
        let trimmed = Array(line.reversed().drop(while: Self.isBlank).reversed())
        guard trimmed.starts(with: prefix) else {
            fail(1, Self.notARecording)
            return false
        }
        let digits = trimmed[prefix.count...]
        guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy(Self.isDigit),
              let version = Int(String(decoding: digits, as: UTF8.self)), version >= 1 else {
            fail(prefix.count + 1, "expected a version number after '\(RecordingFormat.headerPrefix)'")
            return false
        }
        guard version <= RecordingFormat.version else {
            fail(prefix.count + 1, "recording version \(version) is newer than this program reads "
                + "(\(RecordingFormat.version)): update daydream-bridge")
            return false
        }
        recording.version = version
        return true
    }

    /// Reads a line after the header; the entry on it, if it has one and it is good.
    mutating func readLine(_ line: [UInt8]) -> RecordingEntry? {
        var cursor = Cursor(line)
        cursor.skipBlanks()
        guard let first = cursor.peek, first != UInt8(ascii: "#") else { return nil }
        if Self.isDigit(first) {
            return readEntry(&cursor)
        } else if Self.isLetter(first) {
            readInfo(&cursor)
        } else {
            fail(cursor.column, "expected a time, an information key or '#', found '\(Self.character(first))'")
        }
        return nil
    }

    // MARK: Information lines

    mutating func readInfo(_ cursor: inout Cursor) {
        let keyColumn = cursor.column
        let key = cursor.word()
        guard cursor.atEnd || cursor.peek.map(Self.isBlank) == true else {
            fail(cursor.column, "expected a space after the key '\(key)'")
            return
        }
        cursor.skipBlanks()
        let valueColumn = cursor.column
        let value = cursor.rest().trimmingSpaces()
        guard !value.isEmpty else {
            fail(keyColumn, "'\(key)' needs a value")
            return
        }
        var info = recording.info
        switch key {
        case "address": info.address = value
        case "name": info.name = value
        case "manufacturer": info.manufacturer = value
        case "model": info.model = value
        case "serial": info.serial = value
        case "hardware": info.hardware = value
        case "firmware": info.firmware = value
        case "software": info.software = value
        case "recorded": info.recorded = value
        case "source": info.source = value
        case "family":
            guard let family = ControllerFamily.named(value) else {
                let known = ControllerFamily.all.map(\.name).joined(separator: ", ")
                fail(valueColumn, "unknown controller family '\(value)' (known: \(known))")
                return
            }
            info.family = family.id
        case "battery":
            guard let percent = Self.percent(value) else {
                fail(valueColumn, "battery is a percentage, 0 to 100, not '\(value)'")
                return
            }
            info.battery = percent
        default:
            info.extra.append(RecordingField(key: key, value: value))
        }
        recording.info = info
    }

    // MARK: Timed entries

    mutating func readEntry(_ cursor: inout Cursor) -> RecordingEntry? {
        let timeColumn = cursor.column
        guard let time = readTime(&cursor) else { return nil }
        guard let separator = cursor.peek, Self.isBlank(separator) else {
            if let next = cursor.peek {
                fail(cursor.column, "unexpected '\(Self.character(next))' in the time")
            } else {
                fail(cursor.column, "expected a packet (40 hex digits), connected, disconnected or battery after the time")
            }
            return nil
        }
        cursor.skipBlanks()
        let eventColumn = cursor.column
        let word = cursor.token()
        var event: RecordingEvent
        switch word {
        case "":
            fail(eventColumn, "expected a packet (40 hex digits), connected, disconnected or battery after the time")
            return nil
        case "connected":
            event = .connected
        case "disconnected":
            event = .disconnected
        case "battery":
            cursor.skipBlanks()
            let valueColumn = cursor.column
            let value = cursor.token()
            guard let percent = Self.percent(value) else {
                fail(valueColumn, "battery is a percentage, 0 to 100, not '\(value)'")
                return nil
            }
            event = .battery(percent)
        default:
            guard let packet = readPacket(word, column: eventColumn) else { return nil }
            event = .packet(packet)
        }
        cursor.skipBlanks()
        if let extra = cursor.peek, extra != UInt8(ascii: "#") {
            fail(cursor.column, "unexpected '\(cursor.token())' after the \(Self.eventName(event))")
            return nil
        }
        if let previous = previousTime, time < previous {
            fail(timeColumn, "time \(RecordingFormat.formatTime(time)) is before the previous entry's "
                + "\(RecordingFormat.formatTime(previous)); times never decrease")
            return nil
        }
        previousTime = time
        return RecordingEntry(time: time, event: event)
    }

    /// Seconds with up to 9 fraction digits, as a span; nil (and a diagnostic) when malformed.
    mutating func readTime(_ cursor: inout Cursor) -> TimeSpan? {
        let start = cursor.column
        var whole: Int64 = 0
        var wholeDigits = 0
        while let byte = cursor.peek, Self.isDigit(byte) {
            wholeDigits += 1
            guard wholeDigits <= 9 else {
                fail(start, "time is too large (at most 999999999 seconds)")
                return nil
            }
            whole = whole * 10 + Int64(byte - UInt8(ascii: "0"))
            cursor.advance()
        }
        var fraction: Int64 = 0
        if cursor.peek == UInt8(ascii: ".") {
            cursor.advance()
            var digits = 0
            while let byte = cursor.peek, Self.isDigit(byte) {
                digits += 1
                guard digits <= 9 else {
                    fail(cursor.column, "time has more than 9 fraction digits (nanoseconds)")
                    return nil
                }
                fraction = fraction * 10 + Int64(byte - UInt8(ascii: "0"))
                cursor.advance()
            }
            guard digits > 0 else {
                fail(cursor.column, "expected digits after the decimal point")
                return nil
            }
            for _ in digits..<9 { fraction *= 10 }
        }
        return TimeSpan(nanoseconds: whole * 1_000_000_000 + fraction)
    }

    mutating func readPacket(_ word: String, column: Int) -> DaydreamPacket? {
        let family = recording.info.controllerFamily
        let length = family.gatt.packetLength
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        var high: UInt8?
        for (offset, char) in word.utf8.enumerated() {
            guard let nibble = Self.hexValue(char) else {
                if offset == 0 {
                    fail(column, "expected a packet (40 hex digits), connected, disconnected or battery, found '\(word)'")
                } else {
                    fail(column + offset, "'\(Self.character(char))' is not a hex digit")
                }
                return nil
            }
            if let pending = high {
                bytes.append(pending << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        let digits = word.utf8.count
        guard digits == length * 2 else {
            let whose = family.id == .daydream ? "a packet" : "a \(family.name) packet"
            fail(column, "\(whose) is \(length) bytes (\(length * 2) hex digits); this one has \(digits) digits")
            return nil
        }
        do {
            return try bytes.withUnsafeBytes { raw throws(PacketDecodingError) in try family.decode(raw) }
        } catch {
            fail(column, "not a packet: \(error)")
            return nil
        }
    }

    // MARK: Characters

    static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    /// A byte for a message: itself when printable ASCII, else `\u{XX}`-style hex.
    static func character(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? String(UnicodeScalar(byte)) : "\\x" + Hex.encode([byte])
    }

    static func percent(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 3, text.utf8.allSatisfy(isDigit), let value = Int(text), value <= 100 else {
            return nil
        }
        return value
    }

    static func eventName(_ event: RecordingEvent) -> String {
        switch event {
        case .packet: "packet"
        case .connected: "'connected'"
        case .disconnected: "'disconnected'"
        case .battery: "battery level"
        }
    }
}

/// A position in one line's bytes.
struct Cursor {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index >= bytes.count }
    var peek: UInt8? { atEnd ? nil : bytes[index] }
    /// The 1-based column of the next byte.
    var column: Int { index + 1 }

    mutating func advance() { index += 1 }

    mutating func skipBlanks() {
        while let byte = peek, byte == 0x20 || byte == 0x09 { index += 1 }
    }

    /// Letters, digits, `-` and `_`.
    mutating func word() -> String {
        let start = index
        while let byte = peek, ParserState.isLetter(byte) || ParserState.isDigit(byte) || byte == 0x2D || byte == 0x5F {
            index += 1
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// Everything up to the next blank.
    mutating func token() -> String {
        let start = index
        while let byte = peek, byte != 0x20, byte != 0x09 { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// Everything left.
    mutating func rest() -> String {
        let start = index
        index = bytes.count
        return String(decoding: bytes[start...], as: UTF8.self)
    }
}
