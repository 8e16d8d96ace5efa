import Timebase

/// Durations written as text in the config: `"1s"`, `"250ms"`, `"1.5s"`.
public enum DurationText {
    /// What the config expects, for messages.
    public static let expectation = "a duration like \"1s\" or \"250ms\""

    /// The span `text` denotes, or nil when it is not a non-negative number followed by `s` or `ms`.
    public static func parse(_ text: String) -> TimeSpan? {
        let trimmed = text.trimmingSpaces
        let (number, scale): (Substring, Double)
        if trimmed.hasSuffix("ms") {
            (number, scale) = (trimmed.dropLast(2), 1e-3)
        } else if trimmed.hasSuffix("s") {
            (number, scale) = (trimmed.dropLast(1), 1)
        } else {
            return nil
        }
        let digits = number.trimmingSuffixSpaces
        guard !digits.isEmpty,
              digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              digits.filter({ $0 == "." }).count <= 1,
              digits.first != ".", digits.last != ".",
              let value = Double(digits), value.isFinite, value * scale <= 86_400
        else { return nil }
        return TimeSpan.seconds(value * scale)
    }

    /// `span` written the way the config writes durations: `"1s"`, `"250ms"`.
    public static func format(_ span: TimeSpan) -> String {
        if span.nanoseconds % 1_000_000_000 == 0 { return "\(span.nanoseconds / 1_000_000_000)s" }
        if span.nanoseconds % 1_000_000 == 0 { return "\(span.nanoseconds / 1_000_000)ms" }
        return "\(span.seconds)s"
    }
}

extension String {
    var trimmingSpaces: Substring {
        self.drop { $0 == " " }.trimmingSuffixSpaces
    }
}

extension Substring {
    var trimmingSuffixSpaces: Substring {
        var result = self
        while result.last == " " { result = result.dropLast() }
        return result
    }
}
