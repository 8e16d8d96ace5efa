import Foundation
import Glibc
import Synchronization
import Testing
@testable import BridgeConfig
import TestSupport

@Suite("Config watcher (inotify, real files)")
struct ConfigWatcherTests {
    @Test("writing the file in place is a change")
    func writeInPlace() throws {
        let directory = try TemporaryDirectory()
        try directory.write("config.toml", "a = 1\n")
        let watcher = try ConfigWatcher(path: directory.path + "/config.toml")
        #expect(!watcher.readEvents(), "nothing happened yet")
        try directory.write("config.toml", "a = 2\n")
        #expect(watcher.changed())
        #expect(!watcher.readEvents(), "events were consumed")
    }

    @Test("an editor's write-new-then-rename-over is a change")
    func renameOver() throws {
        let directory = try TemporaryDirectory()
        try directory.write("config.toml", "a = 1\n")
        let watcher = try ConfigWatcher(path: directory.path + "/config.toml")
        try directory.write(".config.toml.swp", "a = 2\n")
        #expect(!watcher.changed(), "writing another file is no change")
        try directory.rename(".config.toml.swp", "config.toml")
        #expect(watcher.changed())
    }

    @Test("delete then recreate: both are seen")
    func deleteAndRecreate() throws {
        let directory = try TemporaryDirectory()
        try directory.write("config.toml", "a = 1\n")
        let watcher = try ConfigWatcher(path: directory.path + "/config.toml")
        try directory.remove("config.toml")
        #expect(watcher.changed())
        try directory.write("config.toml", "a = 3\n")
        #expect(watcher.changed())
    }

    @Test("unrelated files in the directory are ignored")
    func unrelated() throws {
        let directory = try TemporaryDirectory()
        try directory.write("config.toml", "a = 1\n")
        let watcher = try ConfigWatcher(path: directory.path + "/config.toml")
        try directory.write("other.toml", "b = 1\n")
        try directory.write("config.toml.bak", "b = 1\n")
        try directory.remove("other.toml")
        #expect(!watcher.changed())
    }

    @Test("a missing directory is a clear error")
    func missingDirectory() {
        #expect(throws: ConfigWatcher.WatchError.self) {
            _ = try ConfigWatcher(path: "/nonexistent-daydream-dir/config.toml")
        }
    }

    /// A watcher that fails to start closes its inotify fd once. Closed twice, the second close
    /// lands on whatever took the number in between: here a thread that keeps opening
    /// /dev/null and finds it closed under it (how the bug showed: another test's inotify fd was
    /// the victim).
    @Test("a watcher that cannot start closes its fd once, not someone else's")
    func failedStartClosesOnce() async {
        let stop = StopFlag()
        let victim = Task.detached { () -> Int in
            var stolen = 0
            while !stop.isSet {
                let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
                guard fd >= 0 else { continue }
                for _ in 0..<20 { _ = fcntl(fd, F_GETFD) }  // hold it open a while
                if close(fd) != 0 { stolen += 1 }  // EBADF: somebody else closed it
            }
            return stolen
        }
        for _ in 0..<20_000 {
            _ = try? ConfigWatcher(path: "/nonexistent-daydream-dir/config.toml")
        }
        stop.set()
        #expect(await victim.value == 0, "the failed watchers closed another thread's descriptor")
    }
}

@Suite("Config watcher: links and lost directories")
struct ConfigWatcherLinkTests {
    @Test("a config that is a symbolic link follows edits of the file it points to")
    func symbolicLink() throws {
        let linkDirectory = try TemporaryDirectory()
        let targetDirectory = try TemporaryDirectory()
        try targetDirectory.write("daydream.toml", "a = 1\n")
        let link = linkDirectory.path + "/config.toml"
        #expect(symlink(targetDirectory.path + "/daydream.toml", link) == 0)
        let watcher = try ConfigWatcher(path: link)
        try targetDirectory.write("other.toml", "b = 1\n")
        #expect(!watcher.changed())
        try targetDirectory.write("daydream.toml", "a = 2\n")
        #expect(watcher.changed())
    }

    @Test("a link to a file in its own directory follows edits of that file")
    func symbolicLinkInTheSameDirectory() throws {
        let directory = try TemporaryDirectory()
        try directory.write("daydream.toml", "a = 1\n")
        #expect(symlink("daydream.toml", directory.path + "/config.toml") == 0)
        let watcher = try ConfigWatcher(path: directory.path + "/config.toml")
        try directory.write("other.toml", "b = 1\n")
        #expect(!watcher.changed())
        try directory.write("daydream.toml", "a = 2\n")
        #expect(watcher.changed())
    }

    /// More events than the kernel queues (fs.inotify.max_queued_events, 16 384 by default)
    /// arrive before the watcher reads: the kernel drops the rest and says so, and an edit of
    /// the config may be among those dropped, so an overflow counts as a change.
    @Test("an overflowed event queue counts as a change")
    func queueOverflow() throws {
        let directory = try TemporaryDirectory()
        try directory.write("config.toml", "a = 1\n")
        let watcher = try ConfigWatcher(path: directory.path + "/config.toml")
        var limit = 16_384
        if let text = try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8),
           let value = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            limit = value
        }
        try #require(limit <= 100_000, "max_queued_events is \(limit): too many events to make here")
        // Names in turn, since the kernel merges an event identical to the one queued last; and
        // twice the limit, since some do merge in a busy test process: a child that another test
        // forks holds a file open until its exec, so that file's close event can come late, right
        // before the next write of the same name.
        let names = ["other-a.toml", "other-b.toml", "other-c.toml"]
        for index in 0..<(2 * limit) {
            try directory.write(names[index % names.count], "b = \(index)\n")
        }
        #expect(watcher.changed())
    }

    @Test("a directory removed and made again is watched again")
    func directoryRecreated() throws {
        let parent = try TemporaryDirectory()
        let directory = parent.path + "/conf"
        #expect(mkdir(directory, 0o755) == 0)
        let file = directory + "/config.toml"
        let watcher = try ConfigWatcher(path: file)
        #expect(rmdir(directory) == 0)
        #expect(watcher.changed(), "the directory going away is reported")
        #expect(!watcher.isWatching)
        #expect(mkdir(directory, 0o755) == 0)
        // The kernel dropped the watch; the parent's watch wakes the loop, and the watch is back.
        #expect(!watcher.changed(), "the directory is back, without the config yet")
        #expect(watcher.isWatching)
        try parent.write(path: file, "a = 1\n")
        let seen = watcher.changed()
        unlink(file)
        rmdir(directory)
        #expect(seen)
    }
}

@Suite("Config watcher: directories that come back, links pointed elsewhere")
struct ConfigWatcherRecoveryTests {
    /// The config's directory and its parent removed, then made again with the config: the
    /// watch came back only when something called `readEvents()` while the directory existed,
    /// and nothing woke the loop for that (SIGHUP did not either).
    @Test("a directory removed with its parent and made again is watched again on its own")
    func directoryAndParentRecreated() throws {
        let top = try TemporaryDirectory()
        let parent = top.path + "/xdg"
        let directory = parent + "/daydream-bridge"
        let file = directory + "/config.toml"
        #expect(mkdir(parent, 0o755) == 0 && mkdir(directory, 0o755) == 0)
        try top.write(path: file, "a = 1\n")
        let watcher = try ConfigWatcher(path: file)
        #expect(unlink(file) == 0 && rmdir(directory) == 0 && rmdir(parent) == 0)
        #expect(watcher.changed())
        #expect(!watcher.isWatching)
        #expect(mkdir(parent, 0o755) == 0 && mkdir(directory, 0o755) == 0)
        try top.write(path: file, "a = 2\n")
        var seen = false
        for _ in 0..<5 where !seen { seen = watcher.changed() }
        #expect(seen, "the config written in the new directory is a change")
        #expect(watcher.isWatching)
        try top.write(path: file, "a = 3\n")
        #expect(watcher.changed(), "later edits are seen")
        unlink(file)
        rmdir(directory)
        rmdir(parent)
    }

    /// A directory renamed away keeps its inotify watch under the new name; a new directory
    /// made under the old one was not watched.
    @Test("a directory renamed away and replaced is watched again")
    func directoryRenamedAndReplaced() throws {
        let top = try TemporaryDirectory()
        let directory = top.path + "/conf"
        #expect(mkdir(directory, 0o755) == 0)
        let watcher = try ConfigWatcher(path: directory + "/config.toml")
        #expect(rename(directory, top.path + "/conf.old") == 0)
        #expect(watcher.changed())
        #expect(mkdir(directory, 0o755) == 0)
        try top.write(path: directory + "/config.toml", "a = 1\n")
        var seen = false
        for _ in 0..<5 where !seen { seen = watcher.changed() }
        #expect(seen)
        try top.write(path: top.path + "/conf.old/config.toml", "a = 1\n")
        #expect(!watcher.changed(), "the old directory is no longer watched")
        for name in ["/conf/config.toml", "/conf.old/config.toml"] { unlink(top.path + name) }
        rmdir(directory)
        rmdir(top.path + "/conf.old")
    }

    /// `ln -sf other.toml config.toml` (unlink, then symlink): the new link was no change, and
    /// the file it points to, in another directory, was not watched.
    @Test("a link pointed at another file follows that file")
    func linkRetargeted() throws {
        let linkDirectory = try TemporaryDirectory()
        let first = try TemporaryDirectory()
        let second = try TemporaryDirectory()
        try first.write("a.toml", "a = 1\n")
        try second.write("b.toml", "b = 1\n")
        let link = linkDirectory.path + "/config.toml"
        #expect(symlink(first.path + "/a.toml", link) == 0)
        let watcher = try ConfigWatcher(path: link)
        #expect(unlink(link) == 0)
        #expect(symlink(second.path + "/b.toml", link) == 0)
        #expect(watcher.changed(), "the link pointed elsewhere is a change")
        try second.write("b.toml", "b = 2\n")
        #expect(watcher.changed(), "an edit of the new target is a change")
        try first.write("a.toml", "a = 2\n")
        #expect(!watcher.changed(), "the old target no longer matters")
    }

    /// The link replaced by renaming a new link over it (`ln -sfn` with a temporary name).
    @Test("a link renamed over the config follows its target")
    func linkRenamedOver() throws {
        let linkDirectory = try TemporaryDirectory()
        let target = try TemporaryDirectory()
        try linkDirectory.write("a.toml", "a = 1\n")
        try target.write("b.toml", "b = 1\n")
        #expect(symlink("a.toml", linkDirectory.path + "/config.toml") == 0)
        let watcher = try ConfigWatcher(path: linkDirectory.path + "/config.toml")
        #expect(symlink(target.path + "/b.toml", linkDirectory.path + "/.config.tmp") == 0)
        try linkDirectory.rename(".config.tmp", "config.toml")
        #expect(watcher.changed())
        try target.write("b.toml", "b = 2\n")
        #expect(watcher.changed())
    }
}

/// A flag one task sets and another polls.
private final class StopFlag: Sendable {
    private let value = Atomic(false)
    var isSet: Bool { value.load(ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
}
