import Foundation
import LocalHTTP
import Testing

/// The page's JSON: written in the shape the page and its tests read, and read back by a real
/// JSON parser (Foundation's) as the values it was built from.
@Suite struct JSONValueTests {
    /// Strings that need escaping, or UTF-8 beyond ASCII, or both.
    static let awkward = [
        "plain", "", "say \"hi\"", "back\\slash", "two\nlines\r\n", "tab\there", "\u{1}\u{1F}\u{7F}", "é ü ß ñ",
        "🎮 gamepad", "\u{2028}\u{2029} line separators", "</script>", "#[profile.x]\nkey = \"v\" # note",
    ]

    /// What Foundation's parser makes of `json`.
    private static func parsed(_ json: JSONValue) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(json.text.utf8), options: [.fragmentsAllowed])
    }

    @Test(arguments: awkward) func aStringRoundTrips(_ text: String) throws {
        #expect(try Self.parsed(.string(text)) as? String == text)
        let object = try #require(try Self.parsed(["text": .string(text), text: "key"]) as? [String: String])
        #expect(object == ["text": text, text: "key"])
    }

    @Test func everyKindRoundTrips() throws {
        let value: JSONValue = [
            "null": nil, "yes": true, "no": false, "integer": .integer(Int64.min), "number": .number(-2.5e-7),
            "list": [1, "two", [3]], "nested": ["a": ["b": "c"]], "empty": [], "nothing": .object([]),
        ]
        let object = try #require(try Self.parsed(value) as? [String: Any])
        #expect(object["null"] is NSNull)
        #expect(object["yes"] as? Bool == true && object["no"] as? Bool == false)
        #expect((object["integer"] as? NSNumber)?.int64Value == Int64.min)
        #expect(object["number"] as? Double == -2.5e-7)
        let list = try #require(object["list"] as? [Any])
        #expect(list.count == 3 && list[0] as? Int == 1 && list[1] as? String == "two" && list[2] as? [Int] == [3])
        #expect((object["nested"] as? [String: [String: String]]) == ["a": ["b": "c"]])
        #expect((object["empty"] as? [Any])?.isEmpty == true)
        #expect((object["nothing"] as? [String: Any])?.isEmpty == true)
    }

    /// The page reads the text itself in places, and the command's tests match it: members in
    /// the order built, `": "` and `", "` between.
    @Test func theTextHasThePagesShape() {
        let value: JSONValue = ["key": "click", "line": .integer(3), "value": [1, .number(2.5), true, nil], "empty": .object([])]
        #expect(value.text == #"{"key": "click", "line": 3, "value": [1, 2.5, true, null], "empty": {}}"#)
        #expect(JSONValue.string("a\"b\\c\nd\u{1}é").text == #""a\"b\\c\nd\u0001é""#)
    }

    /// JSON has no infinity nor NaN: such a number is written as null, so the text stays JSON.
    @Test func aNumberThatIsNotFiniteIsNull() throws {
        let value: JSONValue = [.number(.infinity), .number(-.infinity), .number(.nan)]
        #expect(value.text == "[null, null, null]")
        #expect((try Self.parsed(value) as? [Any])?.allSatisfy { $0 is NSNull } == true)
    }

    /// Text made elsewhere goes in as it is.
    @Test func encodedTextGoesInAsItIs() throws {
        let value: JSONValue = ["address": "C0:DD:EE:00:00:01", "packet": .encoded(#"{"seq": 7, "touch": null}"#)]
        let object = try #require(try Self.parsed(value) as? [String: Any])
        #expect((object["packet"] as? [String: Any])?["seq"] as? Int == 7)
    }
}
