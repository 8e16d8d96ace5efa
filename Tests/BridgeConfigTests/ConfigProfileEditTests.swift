import BridgeConfig
import Foundation
import Testing

/// Whole profiles added, copied, renamed and removed in a config's text: only the lines the edit
/// must change change, comments stay, and an edit that would make the config invalid is refused.
@Suite("config profile edits")
struct ConfigProfileEditTests {
    static let config = """
    # My controller, as I like it.
    [bridge]
    profile = "pad"   # the one I start in

    [profile.pad]
    click = "BTN_SOUTH"    # jump
    app = "profile:keys"   # to typing
    touchpad = { mode = "stick" }

    # Typing.
    [profile.keys]
    applications = ["gedit",
                    "kate"]   # editors
    click = "KEY_ENTER"
    app = "profile:pad"

    [controller."AA:BB:CC:DD:EE:FF"]
    profile = "keys"

    # Chords of the pad.
    [profile.pad.chords]
    "volume-up+volume-down" = "BTN_SELECT"   # select
    """ + "\n"

    func applied(_ edit: ConfigProfileEdit, to text: String = config) throws -> String {
        try edit.applied(to: text).get()
    }

    @Test func aProfileFromAPresetIsAppendedUnderItsNewName() throws {
        let gamepad = try #require(ConfigPreset.named("gamepad"))
        let edited = try applied(.add(name: "racer", preset: gamepad))
        #expect(edited == Self.config + """

        [profile.racer]
        touchpad = { mode = "stick", deadzone = 0.12, saturation = 0.9, shape = "square" }
        click = "BTN_SOUTH"
        app = "BTN_EAST"
        home = { tap = "BTN_MODE", hold = "BTN_START" }
        volume-up = "BTN_TR"
        volume-down = "BTN_TL"

        [profile.racer.chords]
        "volume-up+volume-down" = "BTN_SELECT"

        """)
    }

    @Test func aCopyTakesEveryTableAndLeavesTheFocusRulesOut() throws {
        let edited = try applied(.copy(profile: "keys", name: "typing 2"))
        #expect(edited == Self.config + """

        # Typing.
        [profile."typing 2"]
        click = "KEY_ENTER"
        app = "profile:pad"

        """)
        let pad = try applied(.copy(profile: "pad", name: "pad2"))
        #expect(pad == Self.config + """

        [profile.pad2]
        click = "BTN_SOUTH"    # jump
        app = "profile:keys"   # to typing
        touchpad = { mode = "stick" }

        # Chords of the pad.
        [profile.pad2.chords]
        "volume-up+volume-down" = "BTN_SELECT"   # select

        """)
    }

    @Test func aRenameChangesTheHeadersAndEveryValueThatNamesTheProfile() throws {
        let edited = try applied(.rename(profile: "keys", name: "typing"))
        #expect(edited == Self.config
            .replacingOccurrences(of: "[profile.keys]", with: "[profile.typing]")
            .replacingOccurrences(of: "\"profile:keys\"", with: "\"profile:typing\"")
            .replacingOccurrences(of: "profile = \"keys\"", with: "profile = \"typing\""))
        let pad = try applied(.rename(profile: "pad", name: "game pad"))
        #expect(pad == Self.config
            .replacingOccurrences(of: "[profile.pad]", with: "[profile.\"game pad\"]")
            .replacingOccurrences(of: "[profile.pad.chords]", with: "[profile.\"game pad\".chords]")
            .replacingOccurrences(of: "\"profile:pad\"", with: "\"profile:game pad\"")
            .replacingOccurrences(of: "profile = \"pad\"   #", with: "profile = \"game pad\"   #"))
    }

    @Test func aRemovalTakesTheTablesWithTheCommentsAboveThem() throws {
        let keyless = Self.config.replacingOccurrences(of: "app = \"profile:keys\"   # to typing\n", with: "")
            .replacingOccurrences(of: "[controller.\"AA:BB:CC:DD:EE:FF\"]\nprofile = \"keys\"\n\n", with: "")
        let edited = try applied(.remove(profile: "keys"), to: keyless)
        #expect(edited == """
        # My controller, as I like it.
        [bridge]
        profile = "pad"   # the one I start in

        [profile.pad]
        click = "BTN_SOUTH"    # jump
        touchpad = { mode = "stick" }

        # Chords of the pad.
        [profile.pad.chords]
        "volume-up+volume-down" = "BTN_SELECT"   # select

        """)
    }

    @Test func aProfileAtTheEndGoesWithTheBlankLinesBeforeIt() throws {
        let text = "[profile.a]\nclick = \"KEY_A\"\n\n\n[profile.b]\nclick = \"KEY_B\"\n"
        #expect(try applied(.remove(profile: "b"), to: text) == "[profile.a]\nclick = \"KEY_A\"\n")
        let chords = text + "\n[profile.b.chords]\n\"app+home\" = \"KEY_C\"\n"
        #expect(try applied(.remove(profile: "b"), to: chords) == "[profile.a]\nclick = \"KEY_A\"\n")
    }

    @Test func theFilesOpeningCommentStaysWhenItsFirstProfileGoes() throws {
        let text = "# Mine.\n[profile.a]\nclick = \"KEY_A\"\n\n[profile.b]\nclick = \"KEY_B\"\n"
        #expect(try applied(.remove(profile: "a"), to: text) == "# Mine.\n[profile.b]\nclick = \"KEY_B\"\n")
    }

    @Test func theStartProfileTheLastProfileAndAReferencedOneAreNotRemoved() throws {
        guard case .failure(.notEditable(let start)) = ConfigProfileEdit.remove(profile: "pad").applied(to: Self.config) else {
            Issue.record("the start profile was removed")
            return
        }
        #expect(start.contains("[bridge] profile"))
        guard case .failure(.notEditable(let last)) = ConfigProfileEdit.remove(profile: "a").applied(to: "[profile.a]\nclick = \"KEY_A\"\n") else {
            Issue.record("the last profile was removed")
            return
        }
        #expect(last.contains("only profile"))
        // pad's app and the controller name keys: the checker refuses the result, with its places.
        guard case .failure(.invalid(let diagnostics)) = ConfigProfileEdit.remove(profile: "keys").applied(to: Self.config) else {
            Issue.record("a profile still named elsewhere was removed")
            return
        }
        #expect(diagnostics.contains { $0.position.line == 7 }, "\(diagnostics)")
    }

    @Test func aTakenNameAMissingProfileAndATwoLineNameAreRefused() {
        #expect(ConfigProfileEdit.copy(profile: "pad", name: "keys").applied(to: Self.config)
            == .failure(.notEditable("there is a profile keys already; choose another name")))
        #expect(ConfigProfileEdit.rename(profile: "nope", name: "x").applied(to: Self.config)
            == .failure(.notEditable("there is no profile nope")))
        guard case .failure(.notOneLine) = ConfigProfileEdit.rename(profile: "pad", name: "a\n[profile.b]").applied(to: Self.config) else {
            Issue.record("a name over two lines was taken")
            return
        }
    }

    @Test func aProfileWrittenInlineOrWithKeysElsewhereIsLeftToAHandEdit() {
        let inline = "[profile]\na = { click = \"KEY_A\" }\nb = { click = \"KEY_B\" }\n"
        guard case .failure(.notEditable) = ConfigProfileEdit.rename(profile: "a", name: "c").applied(to: inline) else {
            Issue.record("an inline profile was renamed")
            return
        }
        let dotted = "[profile]\na.click = \"KEY_A\"\nb.click = \"KEY_C\"\n"
        guard case .failure(.notEditable(let reason)) = ConfigProfileEdit.copy(profile: "a", name: "c").applied(to: dotted) else {
            Issue.record("a profile written with dotted keys was copied")
            return
        }
        #expect(reason.contains("[profile.a]"), "\(reason)")
    }

    @Test func anEditIsMadeOnlyOverTheFileItWasMadeAgainst() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("profile-edit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("config.toml").path
        try Self.config.write(toFile: path, atomically: false, encoding: .utf8)
        let stale = ConfigProfileEdit.copy(profile: "pad", name: "p").apply(toFileAt: path, revision: "0000000000000000")
        guard case .failure(.changed) = stale else {
            Issue.record("an edit over another revision was written: \(stale)")
            return
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.config)
        let revision = ConfigEdit.revision(of: Array(Self.config.utf8))
        let written = try ConfigProfileEdit.copy(profile: "pad", name: "p").apply(toFileAt: path, revision: revision).get()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == written)
        #expect(written.hasPrefix(Self.config))
    }
}
