import Foundation
import TestSupport
import Testing

/// The daemon loads no Foundation and no ICU (about 8 MB of RSS): it is built on DaydreamCore,
/// never on the Foundation layer of the `Daydream` library. Nor does it link Dispatch: it runs its
/// own loop (`Reactor.run()`), and the loop's driver from the main dispatch queue
/// (`MainQueueDriver`) lives in the library.
@Suite("linked libraries", .requires(BuiltBinary.exists, "the daydream-bridge binary is not built"))
struct LinkedLibrariesTests {
    /// What `tool arguments... daemon` prints, one trimmed line each.
    private func lines(of tool: String, _ arguments: [String]) throws -> [String] {
        let (status, text) = try ProgramOutput.run(tool, arguments + [BuiltBinary.url.path])
        #expect(status == 0)
        return text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test func daemonLoadsNoFoundationNorICU() throws {
        let libraries = try lines(of: "/usr/bin/ldd", [])
        #expect(libraries.contains { $0.hasPrefix("libswiftCore.so") }, "ldd listed: \(libraries)")
        let unwanted = libraries.filter { $0.contains("Foundation") || $0.lowercased().contains("icu") }
        #expect(unwanted.isEmpty)
    }

    /// Swift's Dispatch module is neither linked by the daemon (its `NEEDED` entries) nor loaded.
    /// libdispatch itself and the blocks runtime still come, for the concurrency runtime
    /// (libswift_Concurrency, which `@MainActor` needs), and a ThreadSanitizer build links them
    /// directly: only the Swift module tells whether the daemon uses Dispatch.
    @Test func daemonLinksNoDispatch() throws {
        let needed = try lines(of: "/usr/bin/readelf", ["--dynamic"]).filter { $0.contains("(NEEDED)") }
        #expect(needed.contains { $0.contains("[libswiftCore.so]") }, "readelf listed: \(needed)")
        let linked = needed.filter { $0.contains("swiftDispatch") }
        #expect(linked.isEmpty, "readelf listed: \(needed)")
        let loaded = try lines(of: "/usr/bin/ldd", []).filter { $0.hasPrefix("libswiftDispatch.so") }
        #expect(loaded.isEmpty)
    }
}
