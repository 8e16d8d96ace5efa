import CEvdev
import EventVocabulary
import Mapping
import Testing
import Timebase
@testable import BridgeConfig

@Suite("Names, suggestions and durations")
struct NameResolutionTests {
    @Test("event names resolve through the generated table")
    func resolve() throws {
        let south = try #require(EventCodeNames.resolve("BTN_SOUTH", types: [EventCodeNames.key]))
        #expect(south.type == UInt16(EV_KEY))
        #expect(south.code == UInt16(BTN_SOUTH))
        // An alias resolves to the same code.
        #expect(EventCodeNames.resolve("BTN_A", types: [EventCodeNames.key])?.code == UInt16(BTN_SOUTH))
        #expect(EventCodeNames.resolve("KEY_VOLUMEUP", types: [EventCodeNames.key])?.code == UInt16(KEY_VOLUMEUP))
        #expect(EventCodeNames.resolve("ABS_X", types: [EventCodeNames.key]) == nil)
        #expect(EventCodeNames.resolve("ABS_X", types: [EventCodeNames.key, EventCodeNames.absolute])?.code == UInt16(ABS_X))
        #expect(EventCodeNames.resolve("BTN_SOTH", types: [EventCodeNames.key]) == nil)
    }

    @Test("the enumerated names are the printing names, without the markers")
    func enumeration() {
        let names = EventCodeNames.allNames(type: EventCodeNames.key)
        #expect(names.contains("BTN_SOUTH"))
        #expect(names.contains("KEY_A"))
        #expect(!names.contains("KEY_MAX"))
        #expect(!names.contains("KEY_RESERVED"))
        #expect(names.count > 400)
        for name in names.prefix(50) {
            #expect(EventCodeNames.resolve(name, types: [EventCodeNames.key]) != nil, "\(name)")
        }
    }

    @Test("misspelt event names get the nearest valid one", arguments: [
        ("BTN_SOTH", "BTN_SOUTH"),
        ("btn_south", "BTN_SOUTH"),
        ("KEY_VOLUMUP", "KEY_VOLUMEUP"),
        ("SOUTH", "BTN_SOUTH"),
        ("a", "KEY_A"),
        ("KEY_LEFTCTLR", "KEY_LEFTCTRL"),
    ])
    func suggestions(name: String, expected: String) {
        #expect(EventCodeNames.suggestion(for: name, types: [EventCodeNames.key]) == expected)
    }

    @Test("nothing is suggested for a name far from every code")
    func noSuggestion() {
        #expect(EventCodeNames.suggestion(for: "PINEAPPLE_PIZZA_42", types: [EventCodeNames.key]) == nil)
    }

    @Test("nearest key names", arguments: [
        ("volume_up", "volume-up"),
        ("clik", "click"),
        ("Home", "home"),
        ("tuochpad", "touchpad"),
    ])
    func nearestKey(name: String, expected: String) {
        let keys = ["click", "app", "home", "volume-up", "volume-down", "touchpad"]
        #expect(NearestName.nearest(to: name, among: keys) == expected)
    }

    @Test("no suggestion when every candidate is far")
    func farKey() {
        #expect(NearestName.nearest(to: "zzzzzz", among: ["click", "app"]) == nil)
        #expect(NearestName.nearest(to: "", among: ["click"]) == nil)
    }

    @Test("durations", arguments: [
        ("1s", Int64(1_000_000_000)),
        ("250ms", Int64(250_000_000)),
        ("1.5s", Int64(1_500_000_000)),
        ("0ms", Int64(0)),
        (" 2 s", Int64(2_000_000_000)),
    ])
    func durations(text: String, nanoseconds: Int64) {
        #expect(DurationText.parse(text) == TimeSpan(nanoseconds: nanoseconds))
    }

    @Test("not durations", arguments: ["1", "s", "ms", "-1s", "1m", "1.s", ".5s", "1e3ms", "1..2s", "1 sec", "99999999s", ""])
    func notDurations(text: String) {
        #expect(DurationText.parse(text) == nil)
    }

    @Test("durations format back the way the config writes them")
    func formatDurations() {
        #expect(DurationText.format(.seconds(1)) == "1s")
        #expect(DurationText.format(.milliseconds(250)) == "250ms")
    }

    @Test("key paths quote keys that are not bare")
    func keyPaths() {
        let path = KeyPath(["controller", "C0:DD:EE:00:00:01", "profile"])
        #expect(path.description == "controller.\"C0:DD:EE:00:00:01\".profile")
        #expect(KeyPath(["profile", "gamepad"]).tableHeader == "[profile.gamepad]")
        #expect(KeyPath(["profile", "x", "click"]).appending(index: 1).description == "profile.x.click[1]")
    }
}
