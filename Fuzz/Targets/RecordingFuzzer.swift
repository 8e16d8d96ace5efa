// libFuzzer entry for the recording reader, built by Fuzz/build-fuzzer together
// with Sources/{DaydreamProtocol,Timebase,Recording}.
//
// Each input is a recording file's bytes. Properties checked (a violation traps,
// which libFuzzer reports as a crash):
// - parsing never crashes;
// - a refused recording has 1...maximumDiagnostics diagnostics, each with a
//   message and a 1-based position on a line of the text;
// - an accepted recording has times that never decrease, and writing it out
//   gives text that reads back to a recording that writes out the same text
//   (the written form is a fixed point).
// - reading the text a line at a time (RecordingLineReader, as replay reads a
//   file) gives the same entries and information, or the same diagnostics.
import DaydreamProtocol
import Recording
import Timebase

@_cdecl("LLVMFuzzerTestOneInput")
public func recordingFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: data == nil ? 0 : size)
    let text = String(decoding: bytes, as: UTF8.self)
    var reader = RecordingLineReader()
    var entries: [RecordingEntry] = []
    for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) where reader.canGoOn {
        if let entry = reader.read(line: Array(line)) { entries.append(entry) }
    }
    do {
        let recording = try RecordingParser.parse(text)
        checkAccepted(recording)
        require(reader.diagnostics.isEmpty, "the line reader refused what the parser accepted")
        require(entries == recording.entries && reader.info == recording.info, "the line reader read other entries")
    } catch {
        checkRefused(error, lines: text.utf8.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) })
        require(reader.diagnostics == error.diagnostics, "the line reader found other problems")
    }
    return 0
}

private func checkRefused(_ error: RecordingParseError, lines: Int) {
    let count = error.diagnostics.count
    require(count >= 1 && count <= RecordingParser.maximumDiagnostics, "\(count) diagnostics")
    for diagnostic in error.diagnostics {
        require(!diagnostic.message.isEmpty, "a diagnostic without a message")
        require(diagnostic.line >= 1 && diagnostic.line <= lines, "diagnostic on line \(diagnostic.line) of \(lines)")
        require(diagnostic.column >= 1, "diagnostic at column \(diagnostic.column)")
    }
}

private func checkAccepted(_ recording: Recording) {
    var previous = TimeSpan.zero
    for entry in recording.entries {
        require(entry.time >= previous, "times decrease: \(previous) then \(entry.time)")
        previous = entry.time
    }
    _ = recording.packets
    let written = RecordingFormat.format(recording)
    let reread: Recording
    do {
        reread = try RecordingParser.parse(written)
    } catch {
        fatalError("a written recording does not read back: \(error)\n\(written)")
    }
    require(reread.entries.count == recording.entries.count, "entries lost on the way back")
    let rewritten = RecordingFormat.format(reread)
    require(rewritten == written, "writing is not a fixed point:\n\(written)\n---\n\(rewritten)")
}
