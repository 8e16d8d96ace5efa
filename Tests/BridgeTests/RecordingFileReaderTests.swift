import Bridge
import DaydreamProtocol
import Descriptors
import Foundation
import Glibc
import Recording
import Testing
import Timebase
import TestSupport

/// A recording file read as it plays: what it reads before the first entry, what it gives, and
/// how it stops at a bad line. Real files in a temporary directory.
@Suite("recording file, read as it plays")
struct RecordingFileReaderTests {
    static let header = "# daydream-bridge recording v1\naddress C0:DD:EE:00:00:01\nname Daydream controller\n"
    static let rest = "0000000000000000041000000000000000000000"
    static let click = "0000000000000000041000000000000000000001"

    /// Writes `count` packet lines, 10 ms apart (a click every 100th), after the header:
    /// about 49 bytes a line. Returns the file's size.
    static func writeLong(_ path: String, count: Int, badLine: (number: Int, text: String)? = nil) throws -> Int {
        let opened = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        try #require(opened >= 0)
        let file = FileDescriptor(owning: opened)
        var size = 0
        var text = header
        let headerLines = 3
        for index in 0..<count {
            let lineNumber = headerLines + 1 + index
            if let badLine, badLine.number == lineNumber {
                text += badLine.text + "\n"
            } else {
                text += "\(RecordingFormat.formatTime(TimeSpan(nanoseconds: Int64(index) * 10_000_000))) \(index % 100 == 0 ? click : rest)\n"
            }
            if text.utf8.count > 1 << 20 || index == count - 1 {
                let bytes = Array(text.utf8)
                let written = bytes.withUnsafeBytes { write(file.rawValue, $0.baseAddress, $0.count) }
                try #require(written == bytes.count)
                size += bytes.count
                text = ""
            }
        }
        return size
    }

    /// A 5 MB recording (76 chunks): the first entry is there after one chunk of the file, not
    /// the whole file (before, all of it was read, parsed and held before anything played; the
    /// CLI's long-recording tests play 40 MB).
    @Test func theFirstEntryOfALargeFileComesAfterOneChunk() throws {
        let directory = try TemporaryDirectory(prefix: "daydream-recording")
        let path = directory.path("long.recording")
        let count = 100_000
        let size = try Self.writeLong(path, count: count)
        #expect(size > 4_900_000)
        let reader = try RecordingFileReader(path: path)
        #expect(reader.info.address == "C0:DD:EE:00:00:01")
        let first = try #require(reader.nextEntry())
        #expect(first == RecordingEntry(time: .zero, event: .packet(try DaydreamPacket(try #require(Hex.decode(Self.click))))))
        #expect(reader.bytesRead <= RecordingFileReader.chunkSize, "read \(reader.bytesRead) of \(size) bytes before the first entry")
        var entries = 1
        var last = first
        var ordered = true
        while let entry = reader.nextEntry() {
            ordered = ordered && entry.time >= last.time
            last = entry
            entries += 1
        }
        #expect(ordered)
        #expect(entries == count)
        #expect(last.time == TimeSpan(nanoseconds: Int64(count - 1) * 10_000_000))
        #expect(reader.bytesRead == size)
        #expect(reader.failure == nil)
    }

    /// A bad line deep in a file: the entries before it play, nothing after it does, and the
    /// failure names it, and a later bad line too, as the whole-text parser does.
    @Test func aBadLineEndsTheEntriesThereAndNamesEveryProblem() throws {
        let directory = try TemporaryDirectory(prefix: "daydream-recording")
        let path = directory.path("bad.recording")
        let lines = 30_000
        _ = try Self.writeLong(path, count: lines, badLine: (20_004, "199.990000 12"))
        let opened = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        try #require(opened >= 0)
        let file = FileDescriptor(owning: opened)
        let tail = Array("battery x\n".utf8)
        #expect(tail.withUnsafeBytes { write(file.rawValue, $0.baseAddress, $0.count) } == tail.count)
        let reader = try RecordingFileReader(path: path)
        var entries = 0
        while reader.nextEntry() != nil { entries += 1 }
        #expect(entries == 20_000)
        #expect(reader.failure == "\(path):20004:12: a packet is 20 bytes (40 hex digits); this one has 2 digits\n"
            + "\(path):\(lines + 4):9: battery is a percentage, 0 to 100, not 'x'")
        #expect(reader.nextEntry() == nil)
    }

    @Test func aFileThatIsNotARecordingIsRefusedAtOnce() throws {
        let directory = try TemporaryDirectory(prefix: "daydream-recording")
        try directory.write("empty.recording", "")
        try directory.write("toml.recording", "[profile.pad]\n")
        for name in ["empty.recording", "toml.recording"] {
            let path = directory.path(name)
            #expect(throws: RecordingFileError.invalid(path: path, RecordingParseError(diagnostics: [
                RecordingDiagnostic(line: 1, column: 1, message: "not a daydream-bridge recording: the first line must be '# daydream-bridge recording v1'"),
            ]))) { try RecordingFileReader(path: path) }
        }
        #expect(throws: RecordingFileError.unreadable(TextFileError(path: directory.path("none"), code: ENOENT))) {
            try RecordingFileReader(path: directory.path("none"))
        }
    }

    /// `replay`, `run --replay` and `monitor --replay` read through here: a FIFO blocked in
    /// open(2), and /dev/zero (one line without end) spun the line skipping at 100 % CPU. Each is
    /// refused at once, saying what it is. Each open runs on a thread of its own, so a reader
    /// that waits or spins fails the test instead of holding it.
    @Test func aFIFOOrADeviceIsRefusedAtOnce() throws {
        let directory = try TemporaryDirectory(prefix: "daydream-recording")
        let fifo = directory.path("fifo.recording")
        #expect(mkfifo(fifo, 0o600) == 0)
        let zero = directory.path("zero.recording")
        #expect(symlink("/dev/zero", zero) == 0)
        for (path, kind) in [(fifo, "a FIFO"), (zero, "a character device")] {
            let finished = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var refusal: RecordingFileError?
            Thread.detachNewThread {
                if case .failure(let error) = Result(catching: { () throws(RecordingFileError) in try RecordingFileReader(path: path) }) {
                    refusal = error
                }
                finished.signal()
            }
            let done = finished.wait(timeout: .now() + 10) == .success
            if !done, path == fifo {
                // Release the reader: a writer that opens and closes gives it end of file.
                let writer = open(path, O_WRONLY | O_NONBLOCK)
                if writer >= 0 { Glibc.close(writer) }
                _ = finished.wait(timeout: .now() + 10)
            }
            #expect(done, "opening \(kind) did not return")
            guard done else { continue }
            #expect(refusal == .unreadable(TextFileError(path: path, code: EINVAL, detail: "it is \(kind), not a regular file")))
            #expect(refusal?.description == "cannot read \(path): it is \(kind), not a regular file")
        }
    }

    /// Lines are held one at a time in a bounded buffer: one longer than `lineLimit` is a problem
    /// at its position, and the lines after it are still read for more.
    @Test func aLineLongerThanTheLimitIsAProblem() throws {
        let directory = try TemporaryDirectory(prefix: "daydream-recording")
        let long = "name " + String(repeating: "x", count: RecordingFileReader.lineLimit + RecordingFileReader.chunkSize)
        try directory.write("long.recording", Self.header + long + "\n0.0 \(Self.rest)\n0.1 zz\n")
        let path = directory.path("long.recording")
        #expect(throws: RecordingFileError.invalid(path: path, RecordingParseError(diagnostics: [
            RecordingDiagnostic(line: 4, column: 1, message: "line longer than \(RecordingFileReader.lineLimit) bytes; a recording's lines are short"),
            RecordingDiagnostic(line: 6, column: 5, message: "expected a packet (40 hex digits), connected, disconnected or battery, found 'zz'"),
        ]))) { try RecordingFileReader(path: path) }
    }

    /// CRLF, a byte-order mark, no newline at the end: read as the whole-text parser reads them.
    @Test func readsWhatTheParserReads() throws {
        let directory = try TemporaryDirectory(prefix: "daydream-recording")
        let text = "\u{FEFF}# daydream-bridge recording v1\r\nbattery 80\r\n0.0 connected\r\n0.5 battery 79\r\n1 \(Self.rest)"
        try directory.write("crlf.recording", text)
        let reader = try RecordingFileReader(path: directory.path("crlf.recording"))
        var entries: [RecordingEntry] = []
        while let entry = reader.nextEntry() { entries.append(entry) }
        let parsed = try RecordingParser.parse(text)
        #expect(entries == parsed.entries)
        #expect(reader.info == parsed.info)
        #expect(reader.failure == nil)
    }
}
