import Foundation
import Testing

/// Every `.timeline` file in Timelines/, run through the engine and compared line by line.
@Suite("Golden timelines")
struct TimelineTests {
    static let directory: URL? = Bundle.module.url(forResource: "Timelines", withExtension: nil)

    static var files: [String] {
        guard let directory,
              let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        return names.filter { $0.hasSuffix(".timeline") }.sorted()
    }

    @Test func timelinesArePresent() {
        #expect(Self.files.count >= 10, "Timelines/ should hold the golden files")
    }

    @Test(arguments: files)
    func timeline(_ name: String) throws {
        let url = try #require(Self.directory).appendingPathComponent(name)
        let timeline = try Timeline(text: String(contentsOf: url, encoding: .utf8))
        #expect(!timeline.expected.isEmpty, "\(name) expects nothing")
        let actual = TimelineRunner.run(timeline)
        if actual != timeline.expected {
            Issue.record("\(name) differs (- expected, + actual):\n\(lineDiff(expected: timeline.expected, actual: actual))")
        }
    }
}
