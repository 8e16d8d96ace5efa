/// What a handler answers: a status, headers and a body, or an event stream that stays open.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The headers besides the ones the server adds.
    public var headers: [(String, String)]
    /// The body.
    public var body: [UInt8]

    /// A response with every part given.
    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// `text` as `text/plain`.
    public static func text(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array((text + "\n").utf8))
    }

    /// `json` as `application/json`.
    public static func json(_ status: Int, _ json: JSONValue) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: Array(json.text.utf8))
    }
}

/// A handler's answer: a whole response, or a Server-Sent Events stream the handler feeds.
public enum HTTPAnswer {
    /// A whole response.
    case response(HTTPResponse)
    /// `text/event-stream`: the handler gets the stream to send events on.
    case eventStream(@MainActor (EventStream) -> Void)
}

/// JSON's string escaping, for `JSONValue`'s text.
public enum JSONText {
    /// `text` as a JSON string, quotes included: a quote and a backslash escaped, control
    /// characters as `\n`, `\r`, `\t` or `\u00XX`, the rest of Unicode as it is.
    public static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
