import EventVocabulary
import Mapping
import Timebase

/// Typed reads of TOML values for the config decoder; every mismatch is
/// recorded as a diagnostic naming the key path, what was expected and what
/// was found, and the read returns nil so decoding goes on to find more.
struct ConfigReader {
    /// Everything found so far.
    var diagnostics = ConfigDiagnostics()
    /// `[gamepad] identity`, read before the profiles so their codes can be checked against it.
    var gamepadIdentity = GamepadIdentity.default
    /// `[dsu]`, when the config has the table.
    var dsu: DSUConfiguration?
    /// `[opentrack]`, when the config has the table.
    var openTrack: OpenTrackConfiguration?

    /// Records a problem.
    mutating func error(at position: SourcePosition, _ message: String) {
        diagnostics.error(at: position, message)
    }

    /// Flags every key of `table` (at `path`) that is not in `allowed`, suggesting the nearest allowed key.
    mutating func rejectUnknownKeys(in table: TOMLTable, at path: KeyPath, allowed: [String]) {
        for entry in table.entries where !allowed.contains(entry.key) {
            let place = path.keys.isEmpty ? "at the top level" : "in \(path.tableHeader)"
            let suggestion = NearestName.suggestionSuffix(for: entry.key, among: allowed)
            let expected = suggestion.isEmpty ? "; expected one of: \(allowed.joined(separator: ", "))" : suggestion
            error(at: entry.keyPosition, "unknown key '\(entry.key)' \(place)\(expected)")
        }
    }

    /// The value as a table, or a diagnostic.
    mutating func table(_ value: TOMLValue, at path: KeyPath, expected: String = "a table") -> TOMLTable? {
        if let table = value.table { return table }
        mismatch(value, at: path, expected: expected)
        return nil
    }

    /// The value as a string, or a diagnostic.
    mutating func string(_ value: TOMLValue, at path: KeyPath, expected: String = "a string") -> String? {
        if let string = value.string { return string }
        mismatch(value, at: path, expected: expected)
        return nil
    }

    /// The value as a boolean, or a diagnostic.
    mutating func boolean(_ value: TOMLValue, at path: KeyPath) -> Bool? {
        if let boolean = value.boolean { return boolean }
        mismatch(value, at: path, expected: "true or false")
        return nil
    }

    /// The value as a number (integer or float) within `range`, or a diagnostic.
    mutating func number(_ value: TOMLValue, at path: KeyPath, in range: ClosedRange<Double>) -> Double? {
        let expected = "a number from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))"
        return bounded(value, at: path, in: range, expected: expected, show: Self.format) { value in
            value.number.flatMap { $0.isFinite ? $0 : nil }
        }
    }

    /// The value as an integer within `range`, or a diagnostic.
    mutating func integer(_ value: TOMLValue, at path: KeyPath, in range: ClosedRange<Int64>) -> Int64? {
        let expected = "a whole number from \(range.lowerBound) to \(range.upperBound)"
        return bounded(value, at: path, in: range, expected: expected, show: { "\($0)" }) { $0.integer }
    }

    /// `read(value)` within `range`; a mismatch when it reads as nothing, "expected X, found Y"
    /// (Y by `show`) when it is outside `range`.
    private mutating func bounded<Bound: Comparable>(
        _ value: TOMLValue, at path: KeyPath, in range: ClosedRange<Bound>, expected: String,
        show: (Bound) -> String, read: (TOMLValue) -> Bound?
    ) -> Bound? {
        guard let bound = read(value) else {
            mismatch(value, at: path, expected: expected)
            return nil
        }
        guard range.contains(bound) else {
            error(at: value.position, "\(path): expected \(expected), found \(show(bound))")
            return nil
        }
        return bound
    }

    /// The value as one of `choices`, or a diagnostic suggesting the nearest.
    mutating func choice(_ value: TOMLValue, at path: KeyPath, among choices: [String], what: String) -> String? {
        guard let string = string(value, at: path, expected: "one of \(Self.list(choices))") else { return nil }
        guard choices.contains(string) else {
            let suggestion = NearestName.suggestionSuffix(for: string, among: choices)
            let tail = suggestion.isEmpty ? "; expected one of \(Self.list(choices))" : suggestion
            error(at: value.position, "\(path): unknown \(what) '\(string)'\(tail)")
            return nil
        }
        return string
    }

    /// The value as a duration (`"1s"`, `"250ms"`) within `range`, or a diagnostic.
    mutating func duration(_ value: TOMLValue, at path: KeyPath, in range: ClosedRange<TimeSpan>) -> TimeSpan? {
        guard let text = value.string, let span = DurationText.parse(text) else {
            mismatch(value, at: path, expected: DurationText.expectation)
            return nil
        }
        guard range.contains(span) else {
            let bounds = "from \(DurationText.format(range.lowerBound)) to \(DurationText.format(range.upperBound))"
            error(at: value.position, "\(path): expected a duration \(bounds), found \"\(text)\"")
            return nil
        }
        return span
    }

    /// Records "PATH: expected X, found Y".
    mutating func mismatch(_ value: TOMLValue, at path: KeyPath, expected: String) {
        error(at: value.position, "\(path): expected \(expected), found \(Self.found(value))")
    }

    /// How a value is shown after "found": strings quoted, numbers as written, others by kind.
    static func found(_ value: TOMLValue) -> String {
        switch value.content {
        case .string(let string): "\"\(string)\""
        case .integer(let integer): "\(integer)"
        case .float(let float): format(float)
        case .boolean(let boolean): "\(boolean)"
        default: value.kindDescription
        }
    }

    /// A number without a needless `.0`.
    static func format(_ number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e15 { return "\(Int64(number))" }
        return "\(number)"
    }

    /// `a, b or c`.
    static func list(_ choices: [String]) -> String {
        guard choices.count > 1, let last = choices.last else { return choices.first ?? "" }
        return choices.dropLast().joined(separator: ", ") + " or " + last
    }
}
