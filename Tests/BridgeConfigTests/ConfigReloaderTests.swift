import CEvdev
import Glibc
import Mapping
import Testing
@testable import BridgeConfig
import TestSupport

@Suite("Config reload (real files)")
struct ConfigReloaderTests {
    static func profile(_ click: String) -> String {
        "[profile.p]\nclick = \"\(click)\"\n"
    }

    private func clickCode(_ reloader: ConfigReloader) -> Action? {
        if case .plain(let action) = reloader.current.configuration.profiles.first?.click { return action }
        return nil
    }

    private func setUp() throws -> (TemporaryDirectory, String, ConfigReloader, ConfigWatcher) {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/config.toml"
        try directory.write("config.toml", Self.profile("KEY_A"))
        let initial = try ConfigLoader.load(.file(path))
        return (directory, path, ConfigReloader(current: initial), try ConfigWatcher(path: path))
    }

    @Test("an edit in place is picked up")
    func editInPlace() throws {
        let (directory, _, initialReloader, watcher) = try setUp()
        var reloader = initialReloader
        #expect(clickCode(reloader) == .keys([UInt16(KEY_A)]))
        try directory.write("config.toml", Self.profile("KEY_B"))
        #expect(watcher.changed())
        guard case .reloaded(let loaded) = reloader.reload() else {
            Issue.record("expected a reload")
            return
        }
        #expect(loaded.configuration.profiles.first?.click == .plain(.keys([UInt16(KEY_B)])))
        #expect(clickCode(reloader) == .keys([UInt16(KEY_B)]))
    }

    @Test("an editor's rename over the file is picked up")
    func renameOver() throws {
        let (directory, _, initialReloader, watcher) = try setUp()
        var reloader = initialReloader
        try directory.write("config.toml.new", Self.profile("KEY_C"))
        try directory.rename("config.toml.new", "config.toml")
        #expect(watcher.changed())
        #expect(reloader.reload() != .unchanged)
        #expect(clickCode(reloader) == .keys([UInt16(KEY_C)]))
    }

    @Test("delete keeps the running config; recreating it loads the new one")
    func deleteAndRecreate() throws {
        let (directory, path, initialReloader, watcher) = try setUp()
        var reloader = initialReloader
        try directory.remove("config.toml")
        #expect(watcher.changed())
        #expect(reloader.reload() == .kept(reasons: ["\(path): error: cannot read \(path): No such file or directory"]))
        #expect(clickCode(reloader) == .keys([UInt16(KEY_A)]))
        try directory.write("config.toml", Self.profile("KEY_D"))
        #expect(watcher.changed())
        #expect(reloader.reload() != .unchanged)
        #expect(clickCode(reloader) == .keys([UInt16(KEY_D)]))
    }

    @Test("a broken edit keeps the old config and says why")
    func brokenEdit() throws {
        let (directory, path, initialReloader, watcher) = try setUp()
        var reloader = initialReloader
        try directory.write("config.toml", Self.profile("KEY_SOTH"))
        #expect(watcher.changed())
        guard case .kept(let reasons) = reloader.reload() else {
            Issue.record("a broken config must not replace the running one")
            return
        }
        #expect(reasons.count == 1)
        #expect(reasons.first?.hasPrefix("\(path):2:9: error: profile.p.click: unknown event code KEY_SOTH") == true)
        #expect(clickCode(reloader) == .keys([UInt16(KEY_A)]))
        // Fixing it then works.
        try directory.write("config.toml", Self.profile("KEY_E"))
        #expect(watcher.changed())
        #expect(reloader.reload() != .unchanged)
        #expect(clickCode(reloader) == .keys([UInt16(KEY_E)]))
    }

    /// 16 000 dotted-key levels (32 KB) overflowed the stack in the TOML shim: the running
    /// daemon died on the reload, every virtual device with it.
    @Test("a config nested too deep keeps the old config and says where")
    func tooDeepEdit() throws {
        let (directory, path, initialReloader, watcher) = try setUp()
        var reloader = initialReloader
        try directory.write("config.toml", String(repeating: "z.", count: 16_000) + "k = 1\n")
        #expect(watcher.changed())
        #expect(reloader.reload() == .kept(reasons: [
            "\(path):1:513: error: TOML syntax: tables, arrays and dotted keys nest deeper than 256 levels",
        ]))
        #expect(clickCode(reloader) == .keys([UInt16(KEY_A)]))
    }

    @Test("saving the same content is no change")
    func unchanged() throws {
        let (directory, _, initialReloader, _) = try setUp()
        var reloader = initialReloader
        try directory.write("config.toml", "# a comment now\n" + Self.profile("KEY_A"))
        #expect(reloader.reload() == .unchanged)
    }
}
