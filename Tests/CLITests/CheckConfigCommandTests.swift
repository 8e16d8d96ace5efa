import Foundation
import TestSupport
import Testing

/// `daydream-bridge check-config`, run as the built binary.
@Suite("check-config command", .requires(BuiltBinary.exists, "the daydream-bridge binary is not built"))
struct CheckConfigCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let config = root.appendingPathComponent("config")
    static let fixtures = root.appendingPathComponent("Tests/BridgeConfigTests/Fixtures")
    /// Every `config/*.toml`, the examples `make install` ships.
    static let shipped = ((try? FileManager.default.contentsOfDirectory(atPath: config.path)) ?? []).filter { $0.hasSuffix(".toml") }.sorted()

    /// A fresh directory, removed with the returned owner.
    func temporaryDirectory() throws -> (URL, TemporaryDirectory) {
        let scratch = try TemporaryDirectory(prefix: "daydream-check-config")
        return (URL(fileURLWithPath: scratch.path), scratch)
    }

    @Test("the shipped configs are found")
    func shippedConfigsAreFound() {
        #expect(Self.shipped.count >= 9, "\(Self.shipped)")
    }

    @Test("every shipped config passes", arguments: shipped)
    func shippedConfigPasses(name: String) throws {
        let result = try BuiltBinary.run(["check-config", Self.config.appendingPathComponent(name).path])
        #expect(result.status == 0)
        #expect(result.stdout == "No errors found.\n")
        #expect(result.stderr.isEmpty)
    }

    @Test("a broken config prints every error and exits 2")
    func brokenConfig() throws {
        for name in ["unknown-keys", "event-codes", "references", "xbox360"] {
            let file = Self.fixtures.appendingPathComponent("\(name).toml").path
            let golden = try String(contentsOf: Self.fixtures.appendingPathComponent("\(name).errors"), encoding: .utf8)
            let lines = golden.split(separator: "\n").map { Self.fixtures.path + "/" + $0 }
            let result = try BuiltBinary.run(["check-config", file])
            #expect(result.status == 2)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == (lines + ["\(lines.count) errors found."]).joined(separator: "\n") + "\n")
        }
    }

    @Test("a missing file is a clear error, exit 2")
    func missingFile() throws {
        let path = "/nonexistent-daydream-bridge/config.toml"
        let result = try BuiltBinary.run(["check-config", path])
        #expect(result.status == 2)
        #expect(result.stderr == "\(path): error: cannot read \(path): No such file or directory\n")
    }

    /// 16 000 dotted-key levels in 32 KB overflowed the stack in the TOML shim (exit 139).
    @Test("a config nested 16 000 levels deep is a clear error, exit 2")
    func deepDottedKeys() throws {
        let (directory, scratch) = try temporaryDirectory()
        defer { withExtendedLifetime(scratch) {} }
        let file = directory.appendingPathComponent("deep.toml")
        try Data((String(repeating: "z.", count: 16_000) + "k = 1\n").utf8).write(to: file)
        let result = try BuiltBinary.run(["check-config", file.path])
        #expect(result.status == 2)
        #expect(result.stderr == """
        \(file.path):1:513: error: TOML syntax: tables, arrays and dotted keys nest deeper than 256 levels
        1 error found.

        """)
    }

    @Test("without FILE it checks the file the lookup finds, and says which")
    func lookup() throws {
        let (home, scratch) = try temporaryDirectory()
        defer { withExtendedLifetime(scratch) {} }
        let directory = home.appendingPathComponent("daydream-bridge")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("config.toml")
        try Data("[profile.x]\nclick = \"BTN_SOTH\"\n".utf8).write(to: file)
        let result = try BuiltBinary.run(["check-config"], environment: ["XDG_CONFIG_HOME": home.path])
        #expect(result.status == 2)
        #expect(result.stdout == "Checking \(file.path)\n")
        #expect(result.stderr == """
        \(file.path):2:9: error: profile.x.click: unknown event code BTN_SOTH; did you mean BTN_SOUTH?
        1 error found.

        """)
    }

    /// Where this machine has a system config, the check runs in a mount namespace of its own
    /// with an empty /etc/daydream-bridge (which needs root, as CI has).
    static let systemConfigHidden: [String]? = {
        guard FileManager.default.fileExists(atPath: "/etc/daydream-bridge") else { return [] }
        guard getuid() == 0 else { return nil }
        return ["/usr/bin/unshare", "--mount", "--propagation", "private", "--", "/bin/sh", "-c",
                "mount -t tmpfs daydream-bridge-tests /etc/daydream-bridge && exec \"$@\"", "sh"]
    }()

    @Test("without FILE and without config files it checks the built-in default",
          .requires(systemConfigHidden != nil, "/etc/daydream-bridge exists here, and only root can hide it"))
    func builtInDefault() throws {
        let (home, scratch) = try temporaryDirectory()
        defer { withExtendedLifetime(scratch) {} }
        let result = try BuiltBinary.run(["check-config"], environment: ["XDG_CONFIG_HOME": home.path], wrapper: Self.systemConfigHidden ?? [])
        #expect(result.status == 0)
        #expect(result.stdoutLines.first?.hasPrefix("No config file (looked for \(home.path)/daydream-bridge/config.toml, ") == true)
        #expect(result.stdoutLines.last == "No errors found.")
    }

    @Test("'-' reads standard input")
    func standardInput() throws {
        // The runner gives the child an empty standard input: an empty config has no profiles.
        let result = try BuiltBinary.run(["check-config", "-"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("<stdin>:1:1: error: no profiles"))
    }

    @Test("two files or an unknown option is a usage error, exit 64")
    func usage() throws {
        let two = try BuiltBinary.run(["check-config", "a.toml", "b.toml"])
        #expect(two.status == 64)
        #expect(two.stderr.hasPrefix("Error: check-config takes at most one file\nUsage: daydream-bridge check-config"))
        let option = try BuiltBinary.run(["check-config", "--strict"])
        #expect(option.status == 64)
        #expect(option.stderr.hasPrefix("Error: unknown option '--strict'"))
    }

    @Test("help lists check-config")
    func help() throws {
        let result = try BuiltBinary.run(["--help"])
        #expect(result.stdout.contains("  check-config  "))
        let own = try BuiltBinary.run(["check-config", "--help"])
        #expect(own.status == 0)
        #expect(own.stdout.contains("Usage: daydream-bridge check-config [FILE | -]"))
    }
}
