/// Reads a recording one line at a time, for a file played as it is read: memory stays the same
/// whatever the file's size, and the first entry is ready as soon as its line is.
///
/// Each line is checked exactly as `RecordingParser.parse` checks it, with the same diagnostics.
/// Information lines fill `info` as they come, so what a player takes from it before the first
/// entry is what the lines before that entry said.
public struct RecordingLineReader: Sendable {
    private var state = ParserState()

    /// A reader before the header.
    public init() {}

    /// The format version the header declared (once line 1 is read).
    public var version: Int { state.recording.version }
    /// The device information read so far.
    public var info: RecordingInfo { state.recording.info }
    /// The problems found so far, in order (at most `RecordingParser.maximumDiagnostics`).
    public var diagnostics: [RecordingDiagnostic] { state.diagnostics }
    /// False once nothing more can be read: the header is bad, or there are enough problems.
    public var canGoOn: Bool { state.canGoOn }
    /// The lines read so far.
    public var lineCount: Int { state.lineNumber }

    /// Reads the next line, without its `\n` (a `\r` before it is allowed); the timed entry on
    /// it, when it has one and it is good. Problems go to `diagnostics`. An empty text is one
    /// empty line, which fails the header check.
    public mutating func read(line: UnsafeBufferPointer<UInt8>) -> RecordingEntry? {
        state.read(rawLine: line)
    }

    /// `read(line:)` for a line held in an array.
    public mutating func read(line: [UInt8]) -> RecordingEntry? {
        line.withUnsafeBufferPointer { read(line: $0) }
    }

    /// Counts the next line as a problem without reading it: one longer than `limit` bytes,
    /// which a reader that holds a line at a time in a bounded buffer does not take.
    public mutating func refuseLine(longerThan limit: Int) {
        state.refuseLine(longerThan: limit)
    }
}
