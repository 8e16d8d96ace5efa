import Testing
@testable import BridgeConfig

@Suite("TOML through toml++")
struct TOMLDocumentTests {
    @Test("keys come back in source order with their positions")
    func sourceOrder() throws {
        let document = try TOMLDocument(parsing: """
        zeta = 1
        alpha = "two"

        [table]
          b = true
          a = [1.5, 2]
        """)
        #expect(document.root.keys == ["zeta", "alpha", "table"])
        #expect(document.root["zeta"]?.keyPosition == SourcePosition(line: 1, column: 1))
        #expect(document.root["zeta"]?.value.integer == 1)
        #expect(document.root["alpha"]?.value.string == "two")
        #expect(document.root["alpha"]?.value.position == SourcePosition(line: 2, column: 9))
        let table = try #require(document.root["table"]?.value.table)
        #expect(table.keys == ["b", "a"])
        #expect(table["b"]?.keyPosition == SourcePosition(line: 5, column: 3))
        #expect(table["b"]?.value.boolean == true)
        let array = try #require(table["a"]?.value.array)
        #expect(array.map(\.number) == [1.5, 2])
        #expect(array[1].position == SourcePosition(line: 6, column: 13))
    }

    @Test("inline tables, quoted keys, dates and unicode strings")
    func kinds() throws {
        let document = try TOMLDocument(parsing: """
        [controller."C0:DD:EE:00:00:01"]
        home = { tap = "BTN_MODE", hold = "BTN_START" }
        when = 1979-05-27T07:32:00Z
        day = 1979-05-27
        name = "Grüße \\u00e9"
        """)
        let controller = try #require(document.root["controller"]?.value.table)
        #expect(controller.keys == ["C0:DD:EE:00:00:01"])
        let entry = try #require(controller["C0:DD:EE:00:00:01"]?.value.table)
        #expect(entry["home"]?.value.table?.keys == ["tap", "hold"])
        #expect(entry["home"]?.value.table?["hold"]?.value.string == "BTN_START")
        #expect(entry["when"]?.value.kindDescription == "a date-time")
        #expect(entry["day"]?.value.content == .date("1979-05-27"))
        #expect(entry["name"]?.value.string == "Grüße é")
    }

    @Test("a syntax error comes back with toml++'s message and position")
    func syntaxError() {
        #expect(throws: TOMLSyntaxError.self) { try TOMLDocument(parsing: "a = 1\nb = = 2\n") }
        do {
            _ = try TOMLDocument(parsing: "a = 1\nb = = 2\n")
        } catch {
            #expect(error.position.line == 2)
            #expect(error.position.column > 0)
            #expect(!error.message.isEmpty)
        }
    }

    @Test("duplicate keys are a syntax error")
    func duplicateKey() {
        #expect(throws: TOMLSyntaxError.self) { try TOMLDocument(parsing: "a = 1\na = 2\n") }
    }

    @Test("empty text is an empty table")
    func empty() throws {
        #expect(try TOMLDocument(parsing: "").root.entries.isEmpty)
        #expect(try TOMLDocument(parsing: "# only a comment\n").root.entries.isEmpty)
    }

    @Test("deep nesting is an error, not a crash")
    func deepNesting() {
        let text = "a = " + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
        #expect(throws: TOMLSyntaxError.self) { try TOMLDocument(parsing: text) }
    }

    /// A process that made a thread stays multi-threaded for glibc, and its every read(2) and
    /// write(2) then costs more: the daemon's config, parsed at start and on each reload, must
    /// not make one. Only a text that could nest deeper than the caller's stack allows does.
    @Test("a config of the usual size parses on the caller's thread; one that could nest deeper gets a thread")
    func parseThreads() throws {
        let before = TOMLDocument.parseThreadsStarted
        _ = try TOMLDocument(parsing: DefaultConfig.text)
        #expect(TOMLDocument.parseThreadsStarted == before)
        #expect(throws: TOMLSyntaxError.self) {
            try TOMLDocument(parsing: String(repeating: "z.", count: 16_000) + "k = 1\n")
        }
        #expect(TOMLDocument.parseThreadsStarted == before + 1)
    }

    /// toml++ bounds nested inline values but not dotted keys: `z.z.z...k = 1` makes a table per
    /// segment, and the shim's flatten recursed once per table: 16 000 levels overflowed the stack.
    @Test("dotted keys deeper than 256 levels are an error with the deepest key's position")
    func deepDottedKeys() throws {
        let deepest = try TOMLDocument(parsing: String(repeating: "z.", count: 255) + "k = 1\n")
        #expect(deepest.root["z"] != nil)
        do {
            _ = try TOMLDocument(parsing: String(repeating: "z.", count: 16_000) + "k = 1\n")
            Issue.record("16 000 levels parsed")
        } catch {
            #expect(error.message == "tables, arrays and dotted keys nest deeper than 256 levels")
            #expect(error.position == SourcePosition(line: 1, column: 513))
        }
    }

    /// toml++ itself recurses once per table while it parses and while it frees what a syntax
    /// error cut short: 200 000 levels (400 KB, within the 1 MiB a config may have) overflowed
    /// the caller's stack inside toml++.
    @Test("200 000 levels cut short by a syntax error are that syntax error")
    func deeperThanTomlPlusPlusRecursion() {
        let text = String(repeating: "z.", count: 200_000) + "k = 1\n= 2\n"
        do {
            _ = try TOMLDocument(parsing: text)
            Issue.record("the syntax error was not found")
        } catch {
            #expect(error.position.line == 2)
        }
        #expect(throws: TOMLSyntaxError.self) { try TOMLDocument(parsing: String(repeating: "z.", count: 200_000) + "k = 1\n") }
    }

    @Test("arbitrary bytes never escape as anything but a syntax error")
    func garbage() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let alphabet = Array("[]{}=\"'.,#\n\t abc123-_+:TZ\u{00}\u{FF}".utf8)
        var parsed = 0
        for length in 0..<400 {
            var bytes: [UInt8] = []
            for _ in 0..<length {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                bytes.append(alphabet[Int(state >> 33) % alphabet.count])
            }
            do {
                _ = try TOMLDocument(parsing: bytes)
                parsed += 1
            } catch {
                #expect(error.position.line >= 0)
            }
        }
        #expect(parsed >= 1, "the empty text parses")
    }
}
