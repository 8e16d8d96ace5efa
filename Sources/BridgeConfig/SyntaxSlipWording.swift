/// A TOML syntax error told in a player's words: toml++ says what its parser expected
/// ("Error while parsing value: could not determine value type"); the editor page says what
/// the slip is and how it is usually mended ("a word such as KEY_SPACE needs quotes").
/// The position stays the parser's: only the sentence changes.
public enum SyntaxSlipWording {
    /// The prefix `ConfigDecoder` puts before toml++'s message.
    static let decoderPrefix = "TOML syntax: "
    /// The prefix toml++ puts before what it was parsing.
    static let parserPrefix = "Error while parsing "

    /// Our sentence for a syntax error's `message` (as toml++ gives it, or as the config's
    /// diagnostics carry it, with `TOML syntax: `); nil when `message` is not a syntax error.
    public static func explained(_ message: String) -> String? {
        var text = Substring(message)
        if text.hasPrefix(decoderPrefix) {
            text = text.dropFirst(decoderPrefix.count)
        } else if !text.hasPrefix(parserPrefix) {
            return nil
        }
        var scope = ""
        if text.hasPrefix(parserPrefix), let colon = text.firstIndex(of: ":") {
            scope = String(text[text.index(text.startIndex, offsetBy: parserPrefix.count)..<colon])
            text = text[text.index(after: colon)...].drop { $0 == " " }
        }
        let detail = String(text)
        return sentence(scope: scope, detail: detail) ?? generic(scope: scope)
    }

    /// The sentence for what the parser was reading (`scope`) and what it saw (`detail`).
    private static func sentence(scope: String, detail: String) -> String? {
        if detail.contains("could not determine value type") {
            return "This value is not one TOML knows: a word such as KEY_SPACE needs quotes (\"KEY_SPACE\"), "
                + "a number is written bare (2.5), and true or false in small letters."
        }
        if scope == "string" || scope == "literal string" {
            return "A text is not closed: it needs its closing quote (\") before the end of the line."
        }
        if detail.contains("dangling comma") || detail.contains("saw comma") {
            return "A comma has nothing after it: remove the comma before the closing bracket or brace."
        }
        if scope == "inline table" {
            return "A table written { ... } is not closed or lacks a comma: "
                + "write it on one line, as { key = value, key = value }."
        }
        if scope == "array" {
            return "A list written [ ... ] is not closed or lacks a comma: write it as [\"KEY_LEFTCTRL\", \"KEY_C\"]."
        }
        if scope == "table header" {
            return "A section header is not closed: it is written [name] (or [[name]]) on a line of its own."
        }
        if detail.hasPrefix("expected '='") {
            return "A setting needs an = between its name and its value, as in click = \"BTN_SOUTH\"."
        }
        if detail.hasPrefix("expected a comment or whitespace") {
            return "Something follows the value on its line: one setting per line, and a comment starts with #."
        }
        if detail.hasPrefix("expected bare key starting character") || scope == "key" {
            return "A name is missing or has a character names cannot have: use letters, digits, - and _, "
                + "or put the name in quotes."
        }
        if scope == "boolean" {
            return "true and false are written in small letters, without quotes and with nothing after them."
        }
        if detail.contains("leading zero") {
            return "A number cannot start with 0 (write 5, not 05)."
        }
        if detail.contains("redefin") || detail.contains("already") {
            return "This name is written twice in the same place: keep one of them."
        }
        if scope == "floating-point" || scope.hasSuffix("integer") || detail.contains("digit") {
            return "A number is not written whole: write it as 2, 2.5 or 0.25, with digits on both sides of the point."
        }
        if detail.contains("end-of-file") {
            return "The file ends in the middle of something: a quote, bracket or brace is not closed."
        }
        return nil
    }

    /// For what no sentence covers: what was being read, in words.
    private static func generic(scope: String) -> String {
        let what = scope.isEmpty ? "the text" : "a " + scope
        return "This is not written as TOML allows: the slip is in \(what) at this place."
    }
}
