import Foundation
import LocalHTTP
import TestSupport
import Testing

/// The page's files, read without a server: each answer leaves no descriptor open on the
/// directory, whichever way the read ends (served, too large, not a regular file).
@Suite struct PageFilesTests {
    /// The targets of this process's open descriptors (`/proc/self/fd`) that lie under `directory`.
    private static func openDescriptors(under directory: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0) }
            .filter { $0.hasPrefix(directory + "/") }
    }

    @Test func everyAnswerClosesTheFileItOpened() throws {
        let scratch = try TemporaryDirectory(prefix: "daydream-page-files")
        try FileManager.default.createDirectory(atPath: scratch.path("web/folder.html"), withIntermediateDirectories: true)
        try scratch.write("web/index.html", "<h1>page</h1>\n")
        try scratch.write("web/large.js", "")
        #expect(truncate(scratch.path("web/large.js"), 5 * 1024 * 1024) == 0, "a sparse file over the 4 MiB limit")
        let files = try #require(PageFiles(directory: scratch.path("web")))

        for _ in 0..<3 {
            let page = files.response(for: "/")
            #expect(page.status == 200)
            #expect(page.body == Array("<h1>page</h1>\n".utf8))
            #expect(files.response(for: "/large.js").status == 404)
            #expect(files.response(for: "/folder.html").status == 404)
        }
        #expect(Self.openDescriptors(under: files.directory) == [])
    }
}
