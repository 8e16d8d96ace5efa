/// One HTTP request as libmicrohttpd parsed it: method, path, query, headers and the body.
public struct HTTPRequest: Sendable, Equatable {
    /// `GET`, `POST`...
    public var method: String
    /// The path, without the query (`/api/config`).
    public var path: String
    /// The query's arguments, decoded.
    public var query: [String: String]
    /// The headers, by lower-case name.
    public var headers: [String: String]
    /// The body, at most the server's limit.
    public var body: [UInt8]

    /// A request with every part given (header names are lowered here).
    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    /// A header's value, by any case of its name.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The body as `application/x-www-form-urlencoded` fields.
    public var formFields: [String: String] { FormEncoding.fields(String(decoding: body, as: UTF8.self)) }
}

/// `application/x-www-form-urlencoded`, as browsers send a form or `URLSearchParams`.
public enum FormEncoding {
    /// The fields of `text` (`a=1&b=two%20words`); a repeated name keeps its first value.
    public static func fields(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]), result[name] == nil else { continue }
            result[name] = parts.count > 1 ? decode(parts[1]) ?? "" : ""
        }
        return result
    }

    /// `+` as a space and `%XX` as its byte; nil for a bad escape or bytes that are not UTF-8.
    static func decode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%") {
                let high = utf8.index(after: index)
                guard high < utf8.endIndex else { return nil }
                let low = utf8.index(after: high)
                guard low < utf8.endIndex, let value = UInt8(String(decoding: [utf8[high], utf8[low]], as: UTF8.self), radix: 16) else { return nil }
                bytes.append(value)
                index = low
            } else {
                bytes.append(byte)
            }
            index = utf8.index(after: index)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
