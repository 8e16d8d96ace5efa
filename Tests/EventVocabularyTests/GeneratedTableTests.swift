import Foundation
import TestSupport
import Testing

/// `Sources/EventVocabulary/EventCodeTable.swift` is what `scripts/generate-event-codes` makes of this
/// machine's kernel header: run the script when this fails.
@Suite("Event code table")
struct EventCodeTableTests {
    static let header = "/usr/include/linux/input-event-codes.h"
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("the checked-in table is the one generated from linux/input-event-codes.h",
          .requires(FileManager.default.fileExists(atPath: header), "no \(header) on this machine (install linux-libc-dev)"))
    func matchesHeader() throws {
        let script = Self.root.appendingPathComponent("scripts/generate-event-codes")
        let process = Process()
        process.executableURL = script
        process.arguments = [Self.header, "-"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let generated = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let checkedIn = try Data(contentsOf: Self.root.appendingPathComponent("Sources/EventVocabulary/EventCodeTable.swift"))
        #expect(generated == checkedIn, "run scripts/generate-event-codes: the header and the table differ")
    }
}
