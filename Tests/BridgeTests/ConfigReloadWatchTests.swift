@testable import Bridge
import Foundation
import Testing
import TestSupport

/// Each reading of the config on the `watch` stream, as the daemon's state announces it, whoever
/// changed the file: `bridge SECONDS config reloaded`, `config kept REASONS` (the running config
/// stays), `config unchanged`; and a client reads it as the bridge's line, no controller's.
@Suite("watch: config readings", .serialized)
@MainActor
struct ConfigReloadWatchTests {
    static let broken = """
    [profile.pad]
    click = "BTN_SOUTHH"
    """

    /// The last `bridge` line the client has, without its time.
    static func lastBridgeLine(_ client: ControllerWatchTests.Client) -> String? {
        client.lines.last { $0.hasPrefix(WatchLine.bridgeAddress + " ") }
    }

    @Test func eachReadingOfTheConfigIsSaidOnTheWatchStream() throws {
        let harness = try DaemonTests.Harness()
        defer { harness.finish() }
        let path = harness.directory + "/run/control"
        try harness.daemon.start(controlSocket: path)
        _ = harness.controller()
        let client = try ControllerWatchTests.Client(path, request: "watch")
        defer { client.close() }
        let reactor = harness.reactor
        #expect(reactor.run(until: { client.readAvailable(); return client.lines.count == 3 }, timeout: .seconds(5)))
        #expect(Self.lastBridgeLine(client) == nil, "a stream starts with the controllers only")

        // Another program saves the file: the watcher reads it, and the stream says so.
        try DaemonTests.otherProfiles.save(toFile: harness.configPath)
        #expect(reactor.run(until: { client.readAvailable(); return Self.lastBridgeLine(client) == "bridge config reloaded" },
                            timeout: .seconds(5)), "\(client.lines)")
        #expect(harness.daemon.configuration.profile(named: "arrows") != nil)

        // A file with an error: the running config stays, and the line gives the reason.
        try Self.broken.save(toFile: harness.configPath)
        #expect(reactor.run(until: { client.readAvailable(); return Self.lastBridgeLine(client)?.hasPrefix("bridge config kept ") == true },
                            timeout: .seconds(5)), "\(client.lines)")
        let kept = Self.lastBridgeLine(client) ?? ""
        #expect(kept.contains("\(harness.configPath):2:9: error:") && kept.contains("BTN_SOUTH"), "\(kept)")
        #expect(harness.daemon.configuration.profile(named: "arrows") != nil, "the running config stayed")

        // The running config written back: read, nothing to change; a reload asked for says so again.
        try DaemonTests.otherProfiles.save(toFile: harness.configPath)
        #expect(reactor.run(until: { client.readAvailable(); return Self.lastBridgeLine(client) == "bridge config unchanged" },
                            timeout: .seconds(5)), "\(client.lines)")
        let before = client.lines.count
        _ = harness.daemon.perform(.reload)
        #expect(reactor.run(until: { client.readAvailable(); return client.lines.count > before }, timeout: .seconds(5)))
        #expect(Array(client.lines.dropFirst(before)) == ["bridge config unchanged"])

        // Each reads back as the bridge's line, and a client makes no controller of it.
        let parsed = client.text.split(separator: "\n").compactMap { WatchLine($0) }.filter { $0.address == WatchLine.bridgeAddress }
        let keptReason = String(kept.dropFirst("bridge config kept ".count))
        #expect(parsed.map(\.event) == [.config(.reloaded), .config(.kept(reasons: [keptReason])), .config(.unchanged), .config(.unchanged)])
        let watched = WatchedControllers()
        var other: [WatchLine] = []
        watched.otherLine = { other.append($0) }
        for line in parsed { watched.take(line, at: reactor.now) }
        #expect(watched.feeds.isEmpty && other == parsed)
    }

    /// A reason over several lines stays one watch line.
    @Test func aKeptConfigsReasonsStayOnOneLine() {
        let text = WatchLine.configText(.kept(reasons: ["a.toml:1:1: error: one", "a.toml:2:1: error: two\nmore"]))
        #expect(text == "config kept a.toml:1:1: error: one / a.toml:2:1: error: two more")
        #expect(WatchLine(Substring("bridge 1.5 " + text))?.event == .config(.kept(reasons: [String(text.dropFirst(12))])))
        #expect(WatchLine("bridge 1.5 config maybe") == nil)
    }
}
