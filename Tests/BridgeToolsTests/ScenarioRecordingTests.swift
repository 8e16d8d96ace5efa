import Foundation
import Recording
import TestSupport
import Testing

/// The scenario recordings in `Tests/Recordings` are exactly what `Scenarios` builds, and read back whole.
@Suite("scenario recordings")
struct ScenarioRecordingTests {
    @Test(arguments: (Scenarios.all + Scenarios.forThePage).map(\.name))
    func committedFileMatchesTheScenario(name: String) throws {
        let scenario = try #require((Scenarios.all + Scenarios.forThePage).first { $0.name == name })
        let url = Golden.recordingsDirectory.appendingPathComponent("\(name).recording")
        GoldenFile.check(RecordingFormat.format(scenario.recording), against: url)
        let parsed = try RecordingParser.parse(String(contentsOf: url, encoding: .utf8))
        #expect(parsed == scenario.recording)
    }
}
