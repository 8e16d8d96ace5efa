import Bridge
import DSU
import Daydream
import Foundation
import Glibc
import Testing
import VirtualDevice
@testable import DSUServer

/// The README's Troubleshooting section quotes the bridge's one-line messages; each message the
/// code makes here must still read as the README quotes it. A quote is `**\`TEXT\`**`, where
/// `...` stands for text left out: its pieces must appear in the message in order (or the whole
/// message inside the quote, where the README shows the line it is logged in).
@Suite("README troubleshooting")
struct ReadmeTroubleshootingTests {
    static let readme = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    /// The quotes of the README's Troubleshooting section.
    static func quotes() throws -> [String] {
        let text = try String(contentsOf: readme, encoding: .utf8)
        guard let start = text.range(of: "\n## Troubleshooting\n") else { return [] }
        let section = text[start.upperBound...]
        let body = section.range(of: "\n## ").map { section[..<$0.lowerBound] } ?? section
        return body.components(separatedBy: "**`").dropFirst().compactMap { $0.components(separatedBy: "`**").first }
    }

    /// True when `quote` reads as `message`: its `...`-separated pieces appear in it in order,
    /// or the message is all inside the quote.
    static func quote(_ quote: String, reads message: String) -> Bool {
        if quote.contains(message) { return true }
        var rest = Substring(message)
        for piece in quote.components(separatedBy: "...").map({ $0.trimmingCharacters(in: .whitespaces) }) where !piece.isEmpty {
            guard let found = rest.range(of: piece) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }

    /// The messages the README quotes, as the code makes them.
    static let messages: [String] = [
        VirtualDeviceError.uinputMissing.description,
        VirtualDeviceError.permissionDenied.description,
        DaydreamControllerManager.Problem.bluetoothdMissing.advice,
        DaydreamControllerManager.Problem.noAdapter.advice,
        DaydreamControllerManager.Problem.adapterOff(name: "hci0", reason: "Powered is false").advice,
        DaydreamControllerManager.Problem.staleBond(address: "ADDRESS").advice,
        DSUSocketError(call: "bind", address: .default, code: EADDRINUSE).description,
    ]

    @Test func theMatchTakesPiecesInOrder() {
        #expect(Self.quote("no permission ... install", reads: "no permission to open /dev/uinput: install it"))
        #expect(!Self.quote("install ... no permission", reads: "no permission to open /dev/uinput: install it"))
        #expect(Self.quote("dsu: in use; running without DSU", reads: "in use"))
    }

    @Test func everyMessageIsQuotedAsTheCodeWritesIt() throws {
        let quotes = try Self.quotes()
        #expect(quotes.count >= Self.messages.count, "the README's Troubleshooting quotes: \(quotes)")
        for message in Self.messages {
            #expect(quotes.contains { Self.quote($0, reads: message) }, "no README quote reads as: \(message)")
        }
    }
}
