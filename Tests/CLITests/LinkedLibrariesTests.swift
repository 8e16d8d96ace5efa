import Foundation
import Testing

/// The daemon loads no Foundation and no ICU (about 8 MB of RSS): it is built on DaydreamCore,
/// never on the Foundation layer of the `Daydream` library.
@Suite("linked libraries", .enabled(if: BuiltBinary.exists, "the daydream-bridge binary is not built"))
struct LinkedLibrariesTests {
    @Test func daemonLoadsNoFoundationNorICU() throws {
        let ldd = Process()
        ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        ldd.arguments = [BuiltBinary.url.path]
        let output = Pipe()
        ldd.standardOutput = output
        try ldd.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ldd.waitUntilExit()
        #expect(ldd.terminationStatus == 0)
        let libraries = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(libraries.contains { $0.hasPrefix("libswiftCore.so") }, "ldd listed: \(libraries)")
        let unwanted = libraries.filter { $0.contains("Foundation") || $0.lowercased().contains("icu") }
        #expect(unwanted.isEmpty)
    }
}
