import Mapping
import Testing
@testable import BridgeConfig

@Suite("profile applications")
struct ApplicationsDecodingTests {
    static func decode(_ text: String) throws(ConfigErrors) -> MappingConfiguration {
        try ConfigDecoder.decodeAll(Array(text.utf8)).mapping
    }

    static func errors(_ text: String) -> [String] {
        ConfigDiagnostics.of(text)
    }

    @Test func patternsAreReadInOrderAndFollowTheFocus() throws {
        let configuration = try Self.decode("""
        [profile.desktop]
        click = "BTN_LEFT"

        [profile.shooter]
        click = "BTN_SOUTH"
        applications = ["steam_app_1245620", "Xonotic*"]

        [profile.video]
        click = "KEY_SPACE"
        applications = ["org.mozilla.firefox", "mpv"]
        """)
        #expect(configuration.profile(named: "shooter")?.applications.map(\.text) == ["steam_app_1245620", "Xonotic*"])
        #expect(configuration.profile(named: "desktop")?.applications == [])
        #expect(configuration.profile(forApplication: ["xonotic-sdl"])?.name == "shooter")
        #expect(configuration.profile(forApplication: ["Navigator", "firefox", "org.mozilla.firefox"])?.name == "video")
        #expect(configuration.profile(forApplication: ["foot"]) == nil)
        #expect(configuration.profile(forApplication: []) == nil)
    }

    @Test func badListsNameFileLineColumn() {
        #expect(Self.errors("[profile.a]\napplications = \"firefox\"\n") == [
            "c.toml:2:16: error: profile.a.applications: expected a list of application ids like "
                + "[\"org.mozilla.firefox\", \"steam_app_*\"], found \"firefox\"",
        ])
        #expect(Self.errors("[profile.a]\napplications = [\"firefox\", 3]\n").first?.hasPrefix(
            "c.toml:2:28: error: profile.a.applications: expected a list of application ids") == true)
        #expect(Self.errors("[profile.a]\napplications = [\" \"]\n") == [
            "c.toml:2:17: error: profile.a.applications: an empty pattern matches no application; give an app_id or "
                + "WM_CLASS, like \"org.mozilla.firefox\"",
        ])
    }

    @Test func aPatternInTwoProfilesIsAnErrorNamingBoth() {
        #expect(Self.errors("""
        [profile.a]
        applications = ["mpv", "Firefox"]

        [profile.b]
        applications = ["firefox"]
        """) == [
            "c.toml:5:17: error: profile.b.applications: \"firefox\" is also in profile.a.applications; "
                + "an application can follow one profile only",
        ])
    }
}
