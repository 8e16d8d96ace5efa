#if canImport(Glibc)
import Glibc
#endif

/// A udev rules file parsed by the key=value grammar of udev(7), with a
/// small evaluator for the keys the project's rules use. Test code only.
struct UdevRules {
    /// One `KEY{attribute}OP"value"` of a rule.
    struct Token: Equatable, CustomStringConvertible {
        var key: String
        var attribute: String?
        var op: String
        var value: String

        var description: String { "\(key)\(attribute.map { "{\($0)}" } ?? "")\(op)\"\(value)\"" }
        var isMatch: Bool { op == "==" || op == "!=" }
    }

    struct ParseError: Error, CustomStringConvertible {
        var line: Int
        var message: String
        var description: String { "line \(line): \(message)" }
    }

    /// A device as udev sees it while processing an event.
    struct Device {
        var action = "add"
        var subsystem = "input"
        var kernel = "event7"
        var devpath = "/devices/virtual/input/input12/event7"
        var attributes: [String: String] = [:]
        var environment: [String: String] = [:]
        var tags: Set<String> = []
    }

    static let matchKeys: Set<String> = ["ACTION", "DEVPATH", "KERNEL", "SUBSYSTEM", "DRIVER", "KERNELS",
                                         "SUBSYSTEMS", "DRIVERS", "ATTRS", "TAGS", "TEST", "PROGRAM", "RESULT", "CONST"]
    static let assignKeys: Set<String> = ["NAME", "SYMLINK", "OWNER", "GROUP", "MODE", "SECLABEL", "OPTIONS",
                                          "IMPORT", "RUN", "LABEL", "GOTO", "SYSCTL"]
    static let eitherKeys: Set<String> = ["ENV", "TAG", "ATTR"]
    static let keysWithAttribute: Set<String> = ["ATTR", "ATTRS", "ENV", "SYSCTL", "TEST", "IMPORT", "RUN", "SECLABEL", "CONST"]

    /// The rules, one token list per rule, with their line numbers.
    private(set) var rules: [(line: Int, tokens: [Token])] = []

    /// Parses `text`; throws at the first line that is not udev syntax.
    init(_ text: String) throws {
        var logical = ""
        var startLine = 0
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = String(rawLine)
            if logical.isEmpty { startLine = index + 1 }
            if line.hasSuffix("\\") {
                line.removeLast()
                logical += line
                continue
            }
            logical += line
            let trimmed = logical.trimmingSpaces
            logical = ""
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            rules.append((startLine, try Self.parseRule(trimmed, line: startLine)))
        }
        try checkLabels()
    }

    private static func parseRule(_ text: String, line: Int) throws -> [Token] {
        var tokens: [Token] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            let keyEnd = rest.firstIndex { !($0.isUppercase || $0 == "_") } ?? rest.endIndex
            let key = String(rest[..<keyEnd])
            rest = rest[keyEnd...]
            guard !key.isEmpty else { throw ParseError(line: line, message: "expected a key at \"\(rest)\"") }
            var attribute: String?
            if rest.first == "{" {
                guard let close = rest.firstIndex(of: "}") else { throw ParseError(line: line, message: "unclosed { after \(key)") }
                attribute = String(rest[rest.index(after: rest.startIndex)..<close])
                rest = rest[rest.index(after: close)...]
            }
            let op = ["==", "!=", "+=", "-=", ":=", "="].first { rest.hasPrefix($0) }
            guard let op else { throw ParseError(line: line, message: "expected an operator after \(key)") }
            rest = rest.dropFirst(op.count)
            guard rest.first == "\"", let close = rest.dropFirst().firstIndex(of: "\"") else {
                throw ParseError(line: line, message: "the value of \(key) must be in double quotes")
            }
            let value = String(rest[rest.index(after: rest.startIndex)..<close])
            rest = rest[rest.index(after: close)...]
            let token = Token(key: key, attribute: attribute, op: op, value: value)
            try check(token, line: line)
            tokens.append(token)
            rest = rest.drop { $0 == " " }
            if rest.first == "," {
                rest = rest.dropFirst().drop { $0 == " " }
                if rest.isEmpty { throw ParseError(line: line, message: "trailing comma") }
            } else if !rest.isEmpty {
                throw ParseError(line: line, message: "expected a comma before \"\(rest)\"")
            }
        }
        return tokens
    }

    private static func check(_ token: Token, line: Int) throws {
        let key = token.key
        guard matchKeys.contains(key) || assignKeys.contains(key) || eitherKeys.contains(key) else {
            throw ParseError(line: line, message: "unknown key \(key)")
        }
        if matchKeys.contains(key) && !token.isMatch {
            throw ParseError(line: line, message: "\(key) can only be matched (== or !=), not assigned")
        }
        if assignKeys.contains(key) && token.isMatch {
            throw ParseError(line: line, message: "\(key) can only be assigned")
        }
        if keysWithAttribute.contains(key) != (token.attribute != nil) && key != "IMPORT" && key != "RUN" && key != "TEST" {
            throw ParseError(line: line, message: "\(key) \(token.attribute == nil ? "needs" : "takes no") {attribute}")
        }
        if key == "OPTIONS", token.value.hasPrefix("static_node="), token.value.dropFirst(12).isEmpty {
            throw ParseError(line: line, message: "static_node needs a node name")
        }
    }

    private func checkLabels() throws {
        var labels: Set<String> = []
        for rule in rules {
            for token in rule.tokens where token.key == "LABEL" {
                guard labels.insert(token.value).inserted else {
                    throw ParseError(line: rule.line, message: "label \(token.value) defined twice")
                }
            }
        }
        for rule in rules {
            for token in rule.tokens where token.key == "GOTO" && !labels.contains(token.value) {
                throw ParseError(line: rule.line, message: "GOTO \(token.value) has no LABEL")
            }
        }
    }

    /// Runs the rules over `device` the way udevd would for the keys used
    /// here (matches with shell globs and `|` alternatives; ENV, TAG, GOTO).
    func evaluate(_ device: Device) -> Device {
        var device = device
        var index = 0
        while index < rules.count {
            let tokens = rules[index].tokens
            index += 1
            guard tokens.filter(\.isMatch).allSatisfy({ matches($0, device) }) else { continue }
            for token in tokens where !token.isMatch {
                switch token.key {
                case "ENV":
                    if let name = token.attribute { device.environment[name] = token.value.isEmpty ? nil : token.value }
                case "TAG":
                    if token.op == "-=" { device.tags.remove(token.value) } else { device.tags.insert(token.value) }
                case "GOTO":
                    if let target = rules.firstIndex(where: { $0.tokens.contains { $0.key == "LABEL" && $0.value == token.value } }) {
                        index = target
                    }
                default:
                    break
                }
            }
        }
        return device
    }

    private func matches(_ token: Token, _ device: Device) -> Bool {
        let actual: String?
        switch token.key {
        case "ACTION": actual = device.action
        case "SUBSYSTEM", "SUBSYSTEMS": actual = device.subsystem
        case "KERNEL": actual = device.kernel
        case "DEVPATH": actual = device.devpath
        case "ATTRS", "ATTR": actual = token.attribute.flatMap { device.attributes[$0] }
        case "ENV": actual = token.attribute.map { device.environment[$0] ?? "" }
        default: actual = nil
        }
        let found = token.value.split(separator: "|", omittingEmptySubsequences: false).contains { pattern in
            guard let actual else { return false }
            return fnmatch(String(pattern), actual, 0) == 0
        }
        return token.op == "==" ? found : !found
    }
}

extension String {
    var trimmingSpaces: String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
