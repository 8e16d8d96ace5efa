import Descriptors
import Recording
#if canImport(Glibc)
import Glibc
#endif

/// A recording file that could not be opened or read up to its first entry: the system's
/// reason, or the problems in its text.
public enum RecordingFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Opening or reading failed: `cannot read PATH: REASON`.
    case unreadable(TextFileError)
    /// The text is not a good recording: one line per problem, `PATH:LINE:COLUMN: message`.
    case invalid(path: String, RecordingParseError)

    /// The message, ready to print.
    public var description: String {
        switch self {
        case .unreadable(let error): "\(error)"
        case .invalid(let path, let error): error.describe(file: path)
        }
    }
}

/// A recording file read as it plays (`replay`, `run --replay`, `monitor --replay`): a chunk at a
/// time, one line at a time, so memory stays the same whatever the file's size and the first
/// packet plays as soon as its line is read.
///
/// Opening it reads the header and the information up to the first timed entry, so a file that
/// is not a recording is refused before anything plays. A bad line further on ends the entries
/// there: the rest of the file is read for more problems (as `RecordingParser` reports every bad
/// line), nothing after the bad line plays, and `failure` names them all.
public final class RecordingFileReader: RecordingEntrySource {
    /// The bytes asked of the file at a time.
    public static let chunkSize = 1 << 16
    /// The longest line read; a recording's lines are a few dozen bytes.
    public static let lineLimit = 1 << 14

    /// The file's path, as given.
    public let path: String
    /// The bytes read from the file so far.
    public private(set) var bytesRead = 0
    /// Why the entries ended early: the file's problems or the system's reason; nil until then.
    public private(set) var failure: String?

    private var file: FileDescriptor?
    private var reader = RecordingLineReader()
    /// Read but not yet taken: `buffer[start..<end]`.
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    /// True while the rest of an over-long line is being skipped.
    private var skippingLine = false
    /// The first entry, read with the information before it.
    private var firstEntry: RecordingEntry?

    /// Opens `path` (a regular file, or a link to one) and reads up to its first entry.
    public init(path: String) throws(RecordingFileError) {
        self.path = path
        buffer = [UInt8](repeating: 0, count: Self.chunkSize + Self.lineLimit)
        // Only a regular file: a FIFO blocked here, and /dev/zero, one line without end, spun the
        // line skipping at 100 % CPU.
        do {
            file = try TextFile.openRegular(path)
        } catch {
            throw .unreadable(error)
        }
        firstEntry = try readEntry()
    }

    /// The information read so far: all that the lines before the first entry gave, once opened.
    public var info: RecordingInfo { reader.info }

    /// The next entry; nil at the end of the file or at a bad line (then `failure` says why).
    public func nextEntry() -> RecordingEntry? {
        if let entry = firstEntry {
            firstEntry = nil
            return entry
        }
        guard file != nil else { return nil }
        do {
            return try readEntry()
        } catch {
            return nil
        }
    }

    /// Reads lines up to the next entry. At a bad line, reads on for the other problems and throws
    /// them (also kept in `failure`); nil at the end.
    private func readEntry() throws(RecordingFileError) -> RecordingEntry? {
        while let line = try nextLine() {
            let entry = read(line)
            if !reader.diagnostics.isEmpty { return try collectProblems() }
            if let entry { return entry }
        }
        return nil
    }

    /// After the first problem: the rest of the lines for more (up to the parser's limit), then
    /// the end of reading.
    private func collectProblems() throws(RecordingFileError) -> RecordingEntry? {
        while reader.canGoOn, let line = try nextLine() {
            _ = read(line)
        }
        let error = RecordingFileError.invalid(path: path, RecordingParseError(diagnostics: reader.diagnostics))
        close()
        failure = error.description
        throw error
    }

    private func read(_ line: Range<Int>) -> RecordingEntry? {
        buffer.withUnsafeBufferPointer { reader.read(line: UnsafeBufferPointer(rebasing: $0[line])) }
    }

    /// Where the next line is in `buffer`, without its `\n` (valid until the next call), or nil
    /// at the end of the file. An empty file is one empty line (which fails the header check), as
    /// in `RecordingParser`. A line longer than `lineLimit` is counted as a problem and skipped.
    private func nextLine() throws(RecordingFileError) -> Range<Int>? {
        var scanned = start
        while true {
            if let newline = buffer[scanned..<end].firstIndex(of: UInt8(ascii: "\n")) {
                let line = start..<newline
                start = newline + 1
                scanned = start
                if skippingLine {
                    skippingLine = false
                    continue
                }
                if line.count > Self.lineLimit {
                    reader.refuseLine(longerThan: Self.lineLimit)
                    continue
                }
                return line
            }
            if end - start > Self.lineLimit {
                if !skippingLine { reader.refuseLine(longerThan: Self.lineLimit) }
                skippingLine = true
                start = end
            }
            let pending = end - start
            guard try fill() > 0 else {
                let isEmptyFile = reader.lineCount == 0 && !skippingLine
                guard pending > 0 && !skippingLine || isEmptyFile else { return nil }
                let line = start..<end
                start = end
                return line
            }
            scanned = start + pending
        }
    }

    /// Moves what is left to the front and reads more after it; the bytes read, 0 at the end.
    private func fill() throws(RecordingFileError) -> Int {
        guard let descriptor = file?.rawValue else { return 0 }
        if start > 0 {
            let pending = end - start
            buffer.withUnsafeMutableBytes { bytes in
                guard let base = bytes.baseAddress else { return }
                _ = memmove(base, base + start, pending)
            }
            start = 0
            end = pending
        }
        while true {
            let count = buffer.withUnsafeMutableBytes { bytes in
                retryingOnInterrupt { Glibc.read(descriptor, bytes.baseAddress.map { $0 + end }, min(Self.chunkSize, bytes.count - end)) }
            }
            if count < 0 {
                let error = RecordingFileError.unreadable(TextFileError(path: path, code: errno))
                close()
                failure = error.description
                throw error
            }
            end += count
            bytesRead += count
            if count == 0 { close() }
            return count
        }
    }

    private func close() {
        try? file.take()?.close()
    }
}
