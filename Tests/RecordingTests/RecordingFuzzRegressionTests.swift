import Recording
import Testing

/// Inputs the recording fuzzer (Fuzz/Targets/RecordingFuzzer.swift) found, kept as tests.
@Suite("recording fuzzer findings")
struct RecordingFuzzRegressionTests {
    /// `found` parsed and written, then that read back: what was read, once writing it again is
    /// checked to give the same text.
    func rewritten(_ found: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Recording {
        let written = RecordingFormat.format(try RecordingParser.parse(found))
        let reread = try RecordingParser.parse(written)
        #expect(RecordingFormat.format(reread) == written, sourceLocation: sourceLocation)
        return reread
    }

    /// A value made only of line breaks (here a form feed, which the reader keeps as a value)
    /// was written as `key ` with nothing after it, which the reader then refused.
    @Test func aValueOfOnlyLineBreaksIsLeftOutWhenWritten() throws {
        let reread = try rewritten("# daydream-bridge recording v1\nrmwrea \u{0C}e   d daydream-bridge recording v1\nrmwrea \u{0C}\nrmsrea \u{0C}# ")
        // The blank second `rmwrea` is gone; the others lost only their line breaks.
        #expect(reread.info.extra == [
            RecordingField(key: "rmwrea", value: "e   d daydream-bridge recording v1"),
            RecordingField(key: "rmsrea", value: "#"),
        ])
    }

    @Test("Device information the controller could send still reads back", arguments: ["\n", "\r\n", " \u{0B} ", "\u{2028}", ""])
    func blankDeviceInformationReadsBack(value: String) throws {
        let recording = Recording(info: RecordingInfo(
            name: value, firmware: "1.3.5", extra: [RecordingField(key: "x-note", value: value)]))
        let reread = try RecordingParser.parse(RecordingFormat.format(recording))
        #expect(reread.info.name == nil)
        #expect(reread.info.firmware == "1.3.5")
        #expect(reread.info.extra.isEmpty)
    }

    /// A line break followed by a combining mark is one `Character` that `isNewline` calls a
    /// line break, so the writer used to replace the pair (mark included) with a space; the
    /// reader, working on bytes, then read back a different value. Now the writer works on scalars.
    @Test func aLineBreakWithACombiningMarkKeepsTheMark() throws {
        let reread = try rewritten("# daydream-bridge recording v1\nrmwrea \u{0C}\u{33F}00000e !\n")
        #expect(reread.info.extra == [RecordingField(key: "rmwrea", value: "\u{33F}00000e !")])
    }
}
