import Foundation
import TestSupport
import Testing

/// `run` with its config in a linked directory, as GNU stow lays out dotfiles
/// (`.config/daydream-bridge -> ../dotfiles/daydream-bridge`), against the built binary.
@Suite("run command: a config in a linked directory", .serialized, .requires(BuiltBinary.exists, "the daydream-bridge binary is not built"))
struct RunLinkedConfigTests {
    static func config(_ profile: String) -> String {
        "[bridge]\nprofile = \"pad\"\n[profile.pad]\nclick = \"BTN_SOUTH\"\n[profile.\(profile)]\nclick = \"KEY_ENTER\"\n"
    }

    func profileExists(_ directory: String, _ name: String) -> Bool {
        (try? BuiltBinary.run(["profile", name, "--socket", directory + "/control"]))?.status == 0
    }

    /// `run --replay` of the held recording in `directory`, printing its events, with `config`.
    static func runReplay(in directory: String, config: String) throws -> RunningBinary {
        try RunningBinary(["run", "--replay", directory + "/held.recording", "--print", "--socket", directory + "/control",
                           "--config", config],
                          directory: directory)
    }

    /// The link replaced by a real directory, then SIGHUP: before, the watch stayed on the old
    /// target, and neither SIGHUP nor any later edit brought it back.
    @Test func afterTheLinkBecomesADirectorySighupAndEditsReload() throws {
        let scratch = try RunCommandTests.makeDirectory()
        defer { withExtendedLifetime(scratch) {} }
        let directory = scratch.path
        let link = directory + "/.config/daydream-bridge"
        for made in ["/.config", "/dotfiles", "/dotfiles/daydream-bridge"] {
            try #require(mkdir(directory + made, 0o755) == 0)
        }
        try Self.config("first").save(toFile: directory + "/dotfiles/daydream-bridge/config.toml")
        try #require(symlink("../dotfiles/daydream-bridge", link) == 0)
        let daemon = try Self.runReplay(in: directory, config: link + "/config.toml")
        defer { daemon.signal(SIGTERM); _ = daemon.waitForExit() }
        #expect(daemon.waitFor { profileExists(directory, "first") })

        try #require(unlink(link) == 0 && mkdir(link, 0o755) == 0)
        try Self.config("second").save(toFile: link + "/config.toml")
        daemon.signal(SIGHUP)
        #expect(daemon.waitFor { profileExists(directory, "second") }, "SIGHUP reads the real directory's config")
        try Self.config("third").save(toFile: link + "/config.toml")
        #expect(daemon.waitFor { profileExists(directory, "third") }, "an edit after SIGHUP reloads")
        #expect(daemon.process.isRunning)
    }

    /// The link pointed at another tree while the daemon runs: the new tree's config is loaded
    /// and its edits reload, with no signal.
    @Test func aRetargetedLinkIsFollowedWithoutASignal() throws {
        let scratch = try RunCommandTests.makeDirectory()
        defer { withExtendedLifetime(scratch) {} }
        let directory = scratch.path
        let link = directory + "/.config/daydream-bridge"
        for made in ["/.config", "/dotfiles-a", "/dotfiles-a/daydream-bridge", "/dotfiles-b", "/dotfiles-b/daydream-bridge"] {
            try #require(mkdir(directory + made, 0o755) == 0)
        }
        try Self.config("first").save(toFile: directory + "/dotfiles-a/daydream-bridge/config.toml")
        try Self.config("second").save(toFile: directory + "/dotfiles-b/daydream-bridge/config.toml")
        try #require(symlink("../dotfiles-a/daydream-bridge", link) == 0)
        let daemon = try Self.runReplay(in: directory, config: link + "/config.toml")
        defer { daemon.signal(SIGTERM); _ = daemon.waitForExit() }
        #expect(daemon.waitFor { profileExists(directory, "first") })
        try #require(symlink("../dotfiles-b/daydream-bridge", directory + "/.config/.new") == 0)
        try #require(rename(directory + "/.config/.new", link) == 0)
        #expect(daemon.waitFor { profileExists(directory, "second") }, "the new target's config is loaded")
        try Self.config("third").save(toFile: directory + "/dotfiles-b/daydream-bridge/config.toml")
        #expect(daemon.waitFor { profileExists(directory, "third") }, "an edit of the new target reloads")
    }
}
