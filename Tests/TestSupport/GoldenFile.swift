import Foundation
import Testing

/// A test's output compared with a golden file kept in the repository.
///
/// With `DAYDREAM_UPDATE_GOLDEN=1` in the environment a mismatching (or missing) golden file is
/// rewritten with the actual text and the test still fails, so a regenerated file is always reviewed.
public enum GoldenFile {
    /// Whether mismatching golden files are rewritten (and still fail).
    public static var updating: Bool { ProcessInfo.processInfo.environment["DAYDREAM_UPDATE_GOLDEN"] == "1" }

    /// Compares `actual` with the file; records an issue naming the first differing line.
    public static func check(_ actual: String, against url: URL, sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = try? String(contentsOf: url, encoding: .utf8)
        guard expected != actual else { return }
        if updating {
            try? actual.write(to: url, atomically: false, encoding: .utf8)
        }
        guard let expected else {
            Issue.record("missing golden file \(url.lastPathComponent)", sourceLocation: sourceLocation)
            return
        }
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let index = zip(expectedLines, actualLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(expectedLines.count, actualLines.count)
        let wanted = index < expectedLines.count ? String(expectedLines[index]) : "<end>"
        let got = index < actualLines.count ? String(actualLines[index]) : "<end>"
        Issue.record("\(url.lastPathComponent) line \(index + 1): expected '\(wanted)', got '\(got)'", sourceLocation: sourceLocation)
    }
}
