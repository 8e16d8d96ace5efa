import Foundation
import Recording
import Testing

/// Reading a recording a line at a time gives what parsing the whole text gives: the same entries,
/// information and problems.
@Suite("recording line reader")
struct RecordingLineReaderTests {
    static let recordings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Recordings")

    /// Feeds `text`'s lines to a reader, as a file reader does.
    static func readLines(_ text: String) -> (entries: [RecordingEntry], reader: RecordingLineReader) {
        var reader = RecordingLineReader()
        var entries: [RecordingEntry] = []
        for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) where reader.canGoOn {
            if let entry = reader.read(line: Array(line)) { entries.append(entry) }
        }
        return (entries, reader)
    }

    @Test func theProjectsRecordingsReadTheSame() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.recordings.path).filter { $0.hasSuffix(".recording") }
        #expect(names.count >= 8)
        for name in names {
            let text = try String(contentsOf: Self.recordings.appendingPathComponent(name), encoding: .utf8)
            let parsed = try RecordingParser.parse(text)
            let (entries, reader) = Self.readLines(text)
            #expect(reader.diagnostics.isEmpty, "\(name)")
            #expect(entries == parsed.entries, "\(name)")
            #expect(reader.info == parsed.info, "\(name)")
            #expect(reader.version == parsed.version, "\(name)")
        }
    }

    @Test(arguments: [
        "",
        "0 connected\n",
        "# daydream-bridge recording v2\n0 connected\n",
        "# daydream-bridge recording v1\nbattery lots\n0.3 connected\n0.05 disconnected\n1.x connected\n0.4 wiggle\n",
        "# daydream-bridge recording v1\n" + String(repeating: "? bad\n", count: 30),
    ])
    func problemsAreTheParsersProblems(text: String) {
        let (_, reader) = Self.readLines(text)
        #expect(throws: RecordingParseError(diagnostics: reader.diagnostics)) { try RecordingParser.parse(text) }
        #expect(!reader.canGoOn || reader.diagnostics.count < RecordingParser.maximumDiagnostics)
    }

    @Test func aRefusedLineIsAProblemAtItsPosition() {
        var reader = RecordingLineReader()
        _ = reader.read(line: Array("# daydream-bridge recording v1".utf8))
        reader.refuseLine(longerThan: 100)
        #expect(reader.diagnostics == [RecordingDiagnostic(line: 2, column: 1, message: "line longer than 100 bytes; a recording's lines are short")])
        #expect(reader.canGoOn)
        #expect(reader.read(line: Array("0 connected".utf8)) == RecordingEntry(time: .zero, event: .connected))
        #expect(reader.lineCount == 3)
    }
}
