@testable import Bridge
import BridgeConfig
import EventLoop
import Mapping
import Testing
import TestSupport
import Timebase

/// The daemon's config part on its own: a reload by request or a change of the file reads the
/// config again; only a valid one that differs reaches `replace`, and the running one stays
/// otherwise.
@Suite @MainActor struct RunningConfigTests {
    private static let first = "[profile.pad]\nclick = \"BTN_SOUTH\"\n"
    private static let second = "[profile.pad]\nclick = \"BTN_EAST\"\n\n[profile.keys]\nclick = \"KEY_ENTER\"\n"

    @MainActor private struct Rig {
        let directory: TemporaryDirectory
        let path: String
        let reactor: Reactor
        let config: RunningConfig
        let replaced: Box

        init() throws {
            directory = try TemporaryDirectory()
            path = directory.path("config.toml")
            try directory.write("config.toml", RunningConfigTests.first)
            reactor = try Reactor()
            config = RunningConfig(try ConfigLoader.load(.file(path)), reactor: reactor)
            let replaced = Box()
            config.replace = { new, _ in replaced.names.append(new.configuration.profiles.map(\.name)) }
            self.replaced = replaced
        }
    }

    @MainActor final class Box { var names: [[String]] = [] }

    @Test func aReloadHandsOnlyAValidChangedConfigOn() throws {
        let rig = try Rig()
        #expect(rig.config.reload() == .unchanged)
        try rig.directory.write("config.toml", "[profile.pad]\nclick = \"BTN_NOPE\"\n")
        guard case .kept(let reasons) = rig.config.reload() else { Issue.record("a broken config was taken"); return }
        #expect(reasons.first?.hasPrefix(rig.path + ":2:") == true, "\(reasons)")
        #expect(rig.replaced.names.isEmpty)
        #expect(rig.config.configuration.profiles.map(\.name) == ["pad"])
        try rig.directory.write("config.toml", Self.second)
        guard case .reloaded = rig.config.reload() else { Issue.record("a valid config was not taken"); return }
        #expect(rig.replaced.names == [["pad", "keys"]])
        #expect(rig.config.configuration.profiles.map(\.name) == ["pad", "keys"])
    }

    @Test func aChangeOfTheFileIsReadOnceWatched() throws {
        let rig = try Rig()
        rig.config.startWatching()
        defer { rig.config.stopWatching() }
        try rig.directory.write("config.toml", Self.second)
        #expect(rig.reactor.run(until: { !rig.replaced.names.isEmpty }, timeout: .seconds(10)))
        #expect(rig.replaced.names == [["pad", "keys"]])
        rig.config.stopWatching()
        try rig.directory.write("config.toml", Self.first)
        // Stopped: nothing reads the file; a reload by request still does.
        #expect(rig.config.reload() != .unchanged)
        #expect(rig.replaced.names.count == 2)
    }
}
