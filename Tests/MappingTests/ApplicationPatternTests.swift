import Mapping
import Testing

@Suite("application patterns")
struct ApplicationPatternTests {
    @Test(arguments: [
        ("firefox", "firefox", true), ("firefox", "Firefox", true), ("FIREFOX", "firefox", true),
        ("firefox", "firefox-esr", false), ("firefox*", "firefox-esr", true), ("*esr", "firefox-esr", true),
        ("steam_app_*", "steam_app_1245620", true), ("steam_app_*", "steam_app_", true), ("steam_app_*", "steam", false),
        ("x?notic", "xonotic", true), ("x?notic", "xnotic", false), ("*", "", true), ("", "", true), ("", "a", false),
        ("a*b*c", "aXXbYYc", true), ("a*b*c", "aXXbYY", false), ("*a*a*a*b", "aaaaaaaaaaaaaaaaaaaab", true),
        ("*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaa", false), ("org.mozilla.*", "org.mozilla.firefox", true),
    ])
    func matches(pattern: String, id: String, expected: Bool) {
        #expect(ApplicationPattern(pattern).matches(id) == expected)
    }
}
