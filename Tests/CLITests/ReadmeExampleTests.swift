import Foundation
import TestSupport
import Testing

/// The README's and doc/'s runnable examples against the built binary: a fenced block right
/// after a `<!-- readme-check -->` line holds `$ COMMAND` lines, each followed by the output it
/// must print (standard output and error together, as a terminal shows them). Each command runs
/// under `/bin/sh` in the repository's root, with the built binary first on `PATH` and no user
/// config, and its output must match the block's byte for byte. A block after
/// `<!-- readme-check: config -->` is a whole config file that `check-config` must find valid.
@Suite("README examples", .requires(BuiltBinary.exists, "the daydream-bridge binary is not built"))
struct ReadmeExampleTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The line that marks the next fenced block as runnable.
    static let marker = "<!-- readme-check -->"

    /// The line that marks the next fenced block as a valid config file.
    static let configMarker = "<!-- readme-check: config -->"

    /// One `$ COMMAND` line and the output under it.
    struct Example {
        var file: String
        var line: Int
        var command: String
        var output: String
    }

    /// The examples in `text`, the Markdown file `file`.
    static func examples(in text: String, file: String) -> [Example] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var examples: [Example] = []
        var index = 0
        while index < lines.count {
            defer { index += 1 }
            guard lines[index].trimmingCharacters(in: .whitespaces) == marker,
                  index + 1 < lines.count, lines[index + 1].hasPrefix("```") else { continue }
            index += 2
            var current: Int?  // the block's example that the next output line belongs to
            while index < lines.count, !lines[index].hasPrefix("```") {
                if lines[index].hasPrefix("$ ") {
                    current = examples.count
                    examples.append(Example(file: file, line: index + 1, command: String(lines[index].dropFirst(2)), output: ""))
                } else if let current {
                    examples[current].output += lines[index] + "\n"
                }
                index += 1
            }
        }
        return examples
    }

    /// The blocks after a `configMarker` in `text`: (line of the block's first line, its text).
    static func configs(in text: String) -> [(line: Int, text: String)] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var configs: [(line: Int, text: String)] = []
        for (index, line) in lines.enumerated() where line.trimmingCharacters(in: .whitespaces) == configMarker {
            guard index + 1 < lines.count, lines[index + 1].hasPrefix("```") else { continue }
            let body = lines[(index + 2)...].prefix { !$0.hasPrefix("```") }
            configs.append((index + 3, body.map { $0 + "\n" }.joined()))
        }
        return configs
    }

    /// README.md and every Markdown file in doc/, by path from the root.
    static func documents() throws -> [String] {
        let pages = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("doc").path)
        return ["README.md"] + pages.filter { $0.hasSuffix(".md") }.sorted().map { "doc/" + $0 }
    }

    /// What `command` prints under `/bin/sh` (both streams into one pipe, in order).
    static func run(_ command: String, configHome: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = root
        var environment = ProcessInfo.processInfo.environment
        let binaryDirectory = BuiltBinary.url.deletingLastPathComponent().path
        environment["PATH"] = binaryDirectory + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["XDG_CONFIG_HOME"] = configHome
        environment["DAYDREAM_BRIDGE_BINARY"] = nil
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func theReaderTakesEachCommandWithTheLinesUnderIt() {
        let text = """
            ```sh
            $ not marked
            ```
            <!-- readme-check -->
            ```console
            $ first
            one
            $ second
            two
            three
            ```
            $ after the block
            """
        let examples = Self.examples(in: text, file: "sample.md")
        #expect(examples.map(\.command) == ["first", "second"])
        #expect(examples.map(\.output) == ["one\n", "two\nthree\n"])
        #expect(examples.map(\.line) == [6, 8])
    }

    @Test func everyMarkedConfigIsValid() throws {
        let configHome = try TemporaryDirectory(prefix: "daydream-readme")
        var checked = 0
        for document in try Self.documents() {
            let text = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
            for config in Self.configs(in: text) {
                try configHome.write("example.toml", config.text)
                let printed = try Self.run("daydream-bridge check-config \(configHome.path("example.toml"))", configHome: configHome.path)
                #expect(printed == "No errors found.\n", "\(document):\(config.line): \(printed)")
                checked += 1
            }
        }
        #expect(checked > 0, "no block is marked \(Self.configMarker)")
    }

    @Test func theREADMEHasRunnableExamples() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let commands = Self.examples(in: text, file: "README.md").map(\.command)
        #expect(commands.contains { $0.hasPrefix("daydream-bridge replay Tests/Recordings/buttons.recording") })
        #expect(commands.contains { $0.hasPrefix("daydream-bridge check-config") })
        let reference = try String(contentsOf: Self.root.appendingPathComponent("doc/commands.md"), encoding: .utf8)
        #expect(Self.examples(in: reference, file: "doc/commands.md").map(\.command).contains("daydream-bridge --help"))
    }

    /// A newcomer reads the quick start on the first screen, at most five commands, and the
    /// whole README stays short enough to read (issue 47: it had grown to 554 lines, pairing at
    /// line 144); what is longer belongs in doc/.
    @Test func theREADMEStartsWithAShortQuickStart() throws {
        let lines = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 450, "README.md has \(lines.count) lines")
        let start = try #require(lines.firstIndex(of: "## Quick start"))
        let end = try #require(lines[(start + 1)...].firstIndex { $0.hasPrefix("## ") })
        #expect(end <= 60, "the quick start ends at line \(end)")
        let block = lines[start..<end].drop { $0 != "```sh" }.dropFirst().prefix { $0 != "```" }
        #expect((1...5).contains(block.count), "the quick start's commands: \(Array(block))")
        #expect(block.contains { $0.hasPrefix("daydream-bridge pair") }, "\(Array(block))")
    }

    @Test func everyExamplePrintsWhatItsPageShows() throws {
        let configHome = try TemporaryDirectory(prefix: "daydream-readme")
        for document in try Self.documents() {
            let text = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
            for example in Self.examples(in: text, file: document) {
                let printed = try Self.run(example.command, configHome: configHome.path)
                #expect(printed == example.output, "\(example.file):\(example.line): $ \(example.command)")
            }
        }
    }
}
