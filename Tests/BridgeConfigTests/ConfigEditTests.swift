import BridgeConfig
import Foundation
import Testing

/// Edits at the parser's positions: every byte outside the edit stays, and an edit that would
/// make the config invalid gives its diagnostics and no text.
@Suite("config edits")
struct ConfigEditTests {
    static let config = """
    # My controller, as I like it.
    [bridge]
    profile = "pad"   # the one I start in

    [profile.pad]
    click = "BTN_SOUTH"    # jump
    app   = [ "KEY_LEFTCTRL",
              "KEY_C" ]   # copy, over two lines
    touchpad = { mode = "stick" }

    # Typing.
    [profile.keys]
    click = "KEY_ENTER"

    [profile.inline-one]
    """ + "\n"

    @Test func aWrittenValueIsReplacedInPlace() throws {
        let edit = ConfigEdit(profile: "pad", key: "click", value: "\"KEY_SPACE\"")
        let edited = try edit.applied(to: Self.config).get()
        #expect(edited == Self.config.replacingOccurrences(of: "click = \"BTN_SOUTH\"    # jump", with: "click = \"KEY_SPACE\"    # jump"))
    }

    @Test func aValueOverTwoLinesAndAnInlineTableAreReplacedWhole() throws {
        let app = try ConfigEdit(profile: "pad", key: "app", value: "\"KEY_ESC\"").applied(to: Self.config).get()
        #expect(app == Self.config.replacingOccurrences(of: "[ \"KEY_LEFTCTRL\",\n          \"KEY_C\" ]", with: "\"KEY_ESC\""))
        let pad = try ConfigEdit(profile: "pad", key: "touchpad", value: "{ mode = \"flick\" }").applied(to: Self.config).get()
        #expect(pad == Self.config.replacingOccurrences(of: "{ mode = \"stick\" }", with: "{ mode = \"flick\" }"))
    }

    @Test func aMissingKeyIsAddedAfterTheProfilesLastLine() throws {
        let edited = try ConfigEdit(profile: "keys", key: "app", value: "\"KEY_SPACE\"").applied(to: Self.config).get()
        #expect(edited == Self.config.replacingOccurrences(of: "click = \"KEY_ENTER\"\n", with: "click = \"KEY_ENTER\"\napp = \"KEY_SPACE\"\n"))
        let empty = try ConfigEdit(profile: "inline-one", key: "home", value: "\"KEY_A\"").applied(to: Self.config).get()
        #expect(empty == Self.config + "home = \"KEY_A\"\n")
    }

    @Test func aKeyAddedToAProfileWithASubTableStaysAboveIt() throws {
        let text = "[profile.aim]\nclick = \"BTN_SOUTH\"\n\n[profile.aim.gyro]\nsens = 2\n"
        let edited = try ConfigEdit(profile: "aim", key: "app", value: "\"BTN_EAST\"").applied(to: text).get()
        #expect(edited == "[profile.aim]\nclick = \"BTN_SOUTH\"\napp = \"BTN_EAST\"\n\n[profile.aim.gyro]\nsens = 2\n")
    }

    @Test func aNewProfileIsAppended() throws {
        let edited = try ConfigEdit(profile: "new", key: "click", value: "\"BTN_EAST\"").applied(to: Self.config).get()
        #expect(edited == Self.config + "\n[profile.new]\nclick = \"BTN_EAST\"\n")
    }

    @Test func aRemovedKeyTakesItsLine() throws {
        let edited = try ConfigEdit(profile: "pad", key: "touchpad", value: nil).applied(to: Self.config).get()
        #expect(edited == Self.config.replacingOccurrences(of: "touchpad = { mode = \"stick\" }\n", with: ""))
    }

    @Test func anInvalidEditGivesItsDiagnosticAndNoText() {
        let result = ConfigEdit(profile: "pad", key: "click", value: "\"KEY_SPAC\"").applied(to: Self.config)
        guard case .failure(.invalid(let diagnostics)) = result else {
            Issue.record("not refused: \(result)")
            return
        }
        #expect(diagnostics.map(\.description) == ["6:9: error: profile.pad.click: unknown event code KEY_SPAC; did you mean KEY_SPACE?"])
        let broken = ConfigEdit(profile: "pad", key: "click", value: "\"unterminated").applied(to: Self.config)
        guard case .failure(.invalid(let syntax)) = broken else {
            Issue.record("not refused: \(broken)")
            return
        }
        #expect(syntax.first?.position.line == 6)
    }

    /// A line break in a value would start a line of its own: `[profile.other]` after the
    /// value would move the profile's next keys into another table, and load.
    @Test func aLineBreakOrControlCharacterIsRefused() {
        let message = "the value must be one line of text, without line breaks or control characters"
        for value in ["\"BTN_SOUTH\"\n[profile.other]", "\"BTN_SOUTH\"\r\n[profile.other]", "\"BTN_SOUTH\" # \u{1B}[2J"] {
            #expect(ConfigEdit(profile: "pad", key: "click", value: value).applied(to: Self.config) == .failure(.notOneLine(message)), "\(value)")
        }
        #expect(ConfigEdit(profile: "pad\n[x]", key: "click", value: "1").applied(to: Self.config)
            == .failure(.notOneLine("the profile name must be one line of text, without line breaks or control characters")))
        #expect(ConfigEdit(profile: "pad", key: "click\n", value: "1").applied(to: Self.config)
            == .failure(.notOneLine("the key must be one line of text, without line breaks or control characters")))
        #expect(ConfigEdit(profile: "pad", key: "click", value: "\t\"KEY_A\"").applied(to: Self.config) != .failure(.notOneLine(message)), "a tab is fine")
    }

    @Test func anInlineProfileIsNotExtendedBehindTheUsersBack() {
        let text = "profile.solo = { click = \"BTN_SOUTH\" }\n"
        #expect(ConfigEdit(profile: "solo", key: "click", value: "\"BTN_EAST\"").applied(to: text)
            == .success("profile.solo = { click = \"BTN_EAST\" }\n"))
        guard case .failure(.notEditable(let reason)) = ConfigEdit(profile: "solo", key: "app", value: "\"BTN_EAST\"").applied(to: text) else {
            Issue.record("an inline profile was extended")
            return
        }
        #expect(reason == "profile.solo is written inline; add app by hand")
    }
}

/// An edit saved to a file: the file changes only when the edit is valid.
@Suite("config edits saved")
struct ConfigEditFileTests {
    @Test func aValidEditIsWrittenAndAnInvalidOneLeavesTheFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("daydream-edit-\(UUID().uuidString).toml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ConfigEditTests.config.write(toFile: path, atomically: false, encoding: .utf8)
        let bad = ConfigEdit(profile: "pad", key: "click", value: "\"KEY_SPAC\"").apply(toFileAt: path)
        guard case .failure(.invalid) = bad else {
            Issue.record("not refused: \(bad)")
            return
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == ConfigEditTests.config)
        let good = try ConfigEdit(profile: "pad", key: "click", value: "\"KEY_SPACE\"").apply(toFileAt: path).get()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == good)
        #expect(good.contains("click = \"KEY_SPACE\"    # jump"))
        #expect(ConfigEdit(profile: "pad", key: "click", value: "\"KEY_A\"\n[profile.other]").apply(toFileAt: path)
            == .failure(.notOneLine("the value must be one line of text, without line breaks or control characters")))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == good, "a value with a line break leaves the file")
        #expect(ConfigEdit(profile: "pad", key: "click", value: "1").apply(toFileAt: "/nonexistent/config.toml")
            == .failure(.file("cannot read /nonexistent/config.toml: No such file or directory")))
    }

    /// A save made against a revision the file no longer has is refused: another writer's
    /// change made between the page's load and its save stays, and the edit is not written.
    @Test func aSaveThatLostARaceIsRefusedNotWrittenOver() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("daydream-edit-\(UUID().uuidString).toml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ConfigEditTests.config.write(toFile: path, atomically: false, encoding: .utf8)
        let loaded = ConfigEdit.revision(of: Array(ConfigEditTests.config.utf8))
        #expect(loaded.count == 16 && loaded != ConfigEdit.revision(of: Array((ConfigEditTests.config + "#").utf8)))
        let behindItsBack = ConfigEditTests.config + "# appended by another program\n"
        try behindItsBack.write(toFile: path, atomically: false, encoding: .utf8)
        let result = ConfigEdit(profile: "pad", key: "click", value: "\"KEY_SPACE\"").apply(toFileAt: path, revision: loaded)
        guard case .failure(.changed(let reason)) = result else {
            Issue.record("not refused: \(result)")
            return
        }
        #expect(reason.contains("changed since it was loaded"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == behindItsBack)
        let current = ConfigEdit.revision(of: Array(behindItsBack.utf8))
        let saved = try ConfigEdit(profile: "pad", key: "click", value: "\"KEY_SPACE\"").apply(toFileAt: path, revision: current).get()
        #expect(saved.hasSuffix("# appended by another program\n") && saved.contains("click = \"KEY_SPACE\""))
    }

    /// A config the user could not write itself is not replaced by the editor: the save says why.
    @Test func aReadOnlyConfigIsRefusedWithTheReason() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("daydream-edit-\(UUID().uuidString).toml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ConfigEditTests.config.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(chmod(path, 0o444) == 0)
        let result = ConfigEdit(profile: "pad", key: "click", value: "\"KEY_SPACE\"").apply(toFileAt: path)
        guard case .failure(.file(let reason)) = result else {
            Issue.record("not refused: \(result)")
            return
        }
        #expect(reason.contains("it is read-only (mode 444)"), "\(reason)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == ConfigEditTests.config)
    }
}
