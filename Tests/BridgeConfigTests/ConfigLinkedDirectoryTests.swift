import CEvdev
import Glibc
import Mapping
import Testing
@testable import BridgeConfig
import TestSupport

/// A config whose directory is a symbolic link, as GNU stow lays out one's dotfiles:
/// `~/.config/daydream-bridge -> ../dotfiles-a/daydream-bridge`. Real files, real links, real inotify.
///
/// inotify queues an event in the system call that causes it: once `rename`, `unlink` or a
/// file's `close` has returned, its event is in the queue. So "no change" is checked by reading
/// the queue at once, and a change by waiting for the fd to be readable (it already is).
@Suite("Config in a linked directory (stow's layout)")
struct ConfigLinkedDirectoryTests {
    /// The files of one test: two dotfiles trees, each with its config, and the link to the first.
    final class Layout {
        let top: TemporaryDirectory
        /// `.config/daydream-bridge`, the link (or later a real directory).
        let link: String
        /// The config's path as the daemon knows it, through the link.
        let path: String

        init() throws {
            top = try TemporaryDirectory(prefix: "daydream-stow")
            for tree in ["dotfiles-a", "dotfiles-b", ".config"] {
                try #require(mkdir(top.path(tree), 0o755) == 0)
            }
            for (tree, key) in [("dotfiles-a", "KEY_A"), ("dotfiles-b", "KEY_B")] {
                try #require(mkdir(top.path(tree + "/daydream-bridge"), 0o755) == 0)
                try top.write(tree + "/daydream-bridge/config.toml", ConfigLinkedDirectoryTests.profile(key))
            }
            link = top.path(".config/daydream-bridge")
            path = link + "/config.toml"
            try #require(symlink("../dotfiles-a/daydream-bridge", link) == 0)
        }

        /// Writes `key`'s profile to the config in `tree` (`dotfiles-a`, `dotfiles-b`, `.config`).
        func edit(_ tree: String, _ key: String) throws {
            try top.write(tree + "/daydream-bridge/config.toml", ConfigLinkedDirectoryTests.profile(key))
        }

        /// Points the link at `tree` by renaming a new link over it, as `ln -sfn` and `mv -T` do.
        func retargetAtomically(to tree: String) throws {
            let temporary = top.path(".config/.daydream-bridge.new")
            try #require(symlink("../\(tree)/daydream-bridge", temporary) == 0)
            try #require(rename(temporary, link) == 0)
        }
    }

    static func profile(_ click: String) -> String {
        "[profile.p]\nclick = \"\(click)\"\n"
    }


    /// The click's key in the running config.
    private func click(_ reloader: ConfigReloader) -> [UInt16]? {
        if case .plain(.keys(let keys)) = reloader.current.configuration.profiles.first?.click { return keys }
        return nil
    }

    private func start(_ layout: Layout) throws -> (ConfigReloader, ConfigWatcher) {
        let reloader = ConfigReloader(current: try ConfigLoader.load(.file(layout.path)))
        return (reloader, try ConfigWatcher(path: layout.path))
    }

    @Test("the link pointed at another tree (ln -sfn) reloads the new tree's config")
    func retargetAtomically() throws {
        let layout = try Layout()
        let (initial, watcher) = try start(layout)
        var reloader = initial
        #expect(click(reloader) == [UInt16(KEY_A)])
        try layout.retargetAtomically(to: "dotfiles-b")
        #expect(watcher.changed(within: 5000), "the link pointed elsewhere is a change")
        #expect(reloader.reload() != .unchanged)
        #expect(click(reloader) == [UInt16(KEY_B)])
    }

    @Test("the link removed and made again (stow -D, then stow) reloads the new tree's config")
    func retargetByRemovingAndLinking() throws {
        let layout = try Layout()
        let (initial, watcher) = try start(layout)
        var reloader = initial
        #expect(unlink(layout.link) == 0)
        #expect(watcher.changed(within: 5000), "the link gone is a change")
        guard case .kept = reloader.reload() else {
            Issue.record("no config behind the path: the running one stays")
            return
        }
        #expect(symlink("../dotfiles-b/daydream-bridge", layout.link) == 0)
        #expect(watcher.changed(within: 5000), "the link back is a change")
        #expect(reloader.reload() != .unchanged)
        #expect(click(reloader) == [UInt16(KEY_B)])
    }

    @Test("after a retarget, edits of the new tree reload and edits of the old one do not")
    func editsAfterRetarget() throws {
        let layout = try Layout()
        let (initial, watcher) = try start(layout)
        var reloader = initial
        try layout.retargetAtomically(to: "dotfiles-b")
        #expect(watcher.changed(within: 5000))
        _ = reloader.reload()
        try layout.edit("dotfiles-b", "KEY_C")
        #expect(watcher.changed(within: 5000), "an edit of the new target is a change")
        #expect(reloader.reload() != .unchanged)
        #expect(click(reloader) == [UInt16(KEY_C)])
        try layout.edit("dotfiles-a", "KEY_X")
        #expect(!watcher.readEvents(), "the old target is no longer watched")
        #expect(reloader.reload() == .unchanged)
        #expect(click(reloader) == [UInt16(KEY_C)])
    }

    @Test("the link replaced by a real directory: its config loads and its edits reload")
    func linkReplacedByDirectory() throws {
        let layout = try Layout()
        let (initial, watcher) = try start(layout)
        var reloader = initial
        #expect(unlink(layout.link) == 0)
        #expect(watcher.changed(within: 5000))
        #expect(mkdir(layout.link, 0o755) == 0)
        _ = watcher.readEvents()
        try layout.edit(".config", "KEY_D")
        #expect(watcher.changed(within: 5000), "the config written in the real directory is a change")
        #expect(reloader.reload() != .unchanged)
        #expect(click(reloader) == [UInt16(KEY_D)])
        try layout.edit(".config", "KEY_E")
        #expect(watcher.changed(within: 5000), "later edits are seen")
        #expect(reloader.reload() != .unchanged)
        #expect(click(reloader) == [UInt16(KEY_E)])
        try layout.edit("dotfiles-a", "KEY_X")
        #expect(!watcher.readEvents(), "the old target is no longer watched")
    }

    @Test("a real directory replaced by a link: the link's tree loads and its edits reload")
    func directoryReplacedByLink() throws {
        let layout = try Layout()
        #expect(unlink(layout.link) == 0 && mkdir(layout.link, 0o755) == 0)
        try layout.edit(".config", "KEY_D")
        let (initial, watcher) = try start(layout)
        var reloader = initial
        #expect(rename(layout.link, layout.top.path(".config/daydream-bridge.old")) == 0)
        #expect(watcher.changed(within: 5000))
        #expect(symlink("../dotfiles-b/daydream-bridge", layout.link) == 0)
        _ = watcher.readEvents()
        #expect(reloader.reload() != .unchanged)
        #expect(click(reloader) == [UInt16(KEY_B)])
        try layout.edit("dotfiles-b", "KEY_C")
        #expect(watcher.changed(within: 5000), "an edit through the new link is a change")
        #expect(reloader.reload() != .unchanged)
        #expect(click(reloader) == [UInt16(KEY_C)])
        try layout.top.write(".config/daydream-bridge.old/config.toml", Self.profile("KEY_X"))
        #expect(!watcher.readEvents(), "the directory moved away is no longer watched")
    }

    /// SIGHUP's re-arm does not rely on the events: here they are read off the fd and dropped
    /// before the watcher sees them (as if lost), so its watches still follow the old target.
    @Test("rearm() watches the path as it is now, whatever events were lost")
    func rearmAfterLostEvents() throws {
        let layout = try Layout()
        let (_, watcher) = try start(layout)
        try layout.retargetAtomically(to: "dotfiles-b")
        var scratch = [UInt8](repeating: 0, count: 4096)
        while read(watcher.fileDescriptor, &scratch, scratch.count) > 0 {}
        watcher.rearm()
        try layout.edit("dotfiles-b", "KEY_C")
        #expect(watcher.changed(within: 5000), "the new target is watched")
        try layout.edit("dotfiles-a", "KEY_X")
        #expect(!watcher.readEvents(), "the old target is not")
    }

    /// The link's own target a link too, relative, two levels: `.config/daydream-bridge ->
    /// ../stow/daydream-bridge`, itself `-> ../dotfiles-a/daydream-bridge`; retargeting the inner
    /// link is seen.
    @Test("a chain of links: retargeting the inner one is seen")
    func chainOfLinks() throws {
        let layout = try Layout()
        try #require(mkdir(layout.top.path("stow"), 0o755) == 0)
        try #require(symlink("../dotfiles-a/daydream-bridge", layout.top.path("stow/daydream-bridge")) == 0)
        try #require(unlink(layout.link) == 0 && symlink("../stow/daydream-bridge", layout.link) == 0)
        let (initial, watcher) = try start(layout)
        var reloader = initial
        let temporary = layout.top.path("stow/.new")
        #expect(symlink("../dotfiles-b/daydream-bridge", temporary) == 0)
        #expect(rename(temporary, layout.top.path("stow/daydream-bridge")) == 0)
        #expect(watcher.changed(within: 5000))
        #expect(reloader.reload() != .unchanged)
        #expect(click(reloader) == [UInt16(KEY_B)])
        try layout.edit("dotfiles-b", "KEY_C")
        #expect(watcher.changed(within: 5000))
        try layout.edit("dotfiles-a", "KEY_X")
        #expect(!watcher.readEvents())
    }
}
