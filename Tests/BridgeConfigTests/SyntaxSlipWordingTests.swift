import BridgeConfig
import Testing

/// The editor page's sentences for TOML slips: each case is a real slip, parsed by toml++
/// through the decoder, so the messages mapped are the ones the parser gives today.
@Suite("syntax slips in our words")
struct SyntaxSlipWordingTests {
    /// The one diagnostic the decoder gives for `line` written in a profile (on line 2).
    static func slip(_ line: String) throws -> ConfigDiagnostic {
        let diagnostics: [ConfigDiagnostic]
        do {
            _ = try ConfigDecoder.decodeAll(Array("[profile.pad]\n\(line)\n".utf8))
            diagnostics = []
        } catch {
            diagnostics = error.diagnostics
        }
        try #require(diagnostics.count == 1)
        return diagnostics[0]
    }

    @Test(arguments: [
        ("click = KEY_SPACE", 2, 9, "needs quotes (\"KEY_SPACE\")"),
        ("click = \"KEY_SPACE", 2, 19, "closing quote"),
        ("click = { tap = \"KEY_A\"", 2, 24, "{ key = value, key = value }"),
        ("click = [\"KEY_A\", \"KEY_B\"", 2, 27, "list written [ ... ]"),
        ("click \"KEY_A\"", 2, 7, "needs an = between its name and its value"),
        ("click = \"KEY_A\" x", 2, 17, "one setting per line"),
        ("click = { tap = \"KEY_A\", }", 2, 26, "remove the comma"),
        ("deadzone = 01", 2, 14, "cannot start with 0"),
        ("deadzone = 0.", 2, 14, "digits on both sides of the point"),
        ("natural = tru", 2, 14, "small letters"),
    ])
    func aSlipIsToldInOurWords(line: String, row: Int, column: Int, words: String) throws {
        let diagnostic = try Self.slip(line)
        #expect(diagnostic.position == SourcePosition(line: row, column: column))
        let sentence = try #require(SyntaxSlipWording.explained(diagnostic.message))
        #expect(sentence.contains(words), "\(diagnostic.message) -> \(sentence)")
        #expect(!sentence.contains("Error while parsing"))
    }

    @Test func aNameWrittenTwiceIsSaid() throws {
        let diagnostic = try Self.slip("click = \"KEY_A\"\nclick = \"KEY_B\"")
        #expect(diagnostic.position.line == 3)
        #expect(SyntaxSlipWording.explained(diagnostic.message) == "This name is written twice in the same place: keep one of them.")
    }

    @Test func tomlMessagesWithoutTheDecodersPrefixAreExplainedToo() {
        let sentence = SyntaxSlipWording.explained("Error while parsing value: could not determine value type")
        #expect(sentence?.hasPrefix("This value is not one TOML knows") == true)
    }

    @Test func aSlipNoSentenceCoversSaysWhatWasBeingRead() {
        #expect(SyntaxSlipWording.explained("TOML syntax: Error while parsing date-time: something new")
            == "This is not written as TOML allows: the slip is in a date-time at this place.")
    }

    @Test func aValidationErrorIsNoSyntaxSlip() throws {
        let diagnostic = try Self.slip("click = \"KEY_SPACEE\"")
        #expect(diagnostic.message.contains("did you mean KEY_SPACE"))
        #expect(SyntaxSlipWording.explained(diagnostic.message) == nil)
    }
}
