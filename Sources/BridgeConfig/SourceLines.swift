/// A config's text as lines, for edits at the parser's positions: line and column (from 1, the
/// column in Unicode scalars, as toml++ counts) to an offset in the text's scalars, and back.
struct SourceLines {
    private let scalars: [Unicode.Scalar]
    /// Where each line starts in `scalars`.
    private let lineStarts: [Int]

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
        var starts = [0]
        for (index, scalar) in scalars.enumerated() where scalar == "\n" { starts.append(index + 1) }
        lineStarts = starts
    }

    /// The offset of `position`; nil when the text has no such place.
    func offset(of position: SourcePosition) -> Int? {
        guard position.line >= 1, position.line <= lineStarts.count, position.column >= 1 else { return nil }
        let offset = lineStarts[position.line - 1] + position.column - 1
        return offset <= scalars.count ? offset : nil
    }

    /// The character at `position`, if the text has one there.
    func scalar(at position: SourcePosition) -> Unicode.Scalar? {
        guard let offset = offset(of: position), offset < scalars.count else { return nil }
        return scalars[offset]
    }

    /// The text with `range` replaced by `replacement`.
    func replacing(_ range: Range<Int>, with replacement: String) -> String {
        text(0..<range.lowerBound) + replacement + text(range.upperBound..<scalars.count)
    }

    /// The text with `line` (1-based) followed by a new line holding `content`.
    func inserting(_ content: String, afterLine line: Int) -> String {
        let end = line < lineStarts.count ? lineStarts[line] : scalars.count
        let needsBreak = end > 0 && scalars[end - 1] != "\n"
        return text(0..<end) + (needsBreak ? "\n" : "") + content + "\n" + text(end..<scalars.count)
    }

    /// The text without the whole line `position` is on.
    func removingLine(containing position: SourcePosition) -> String {
        let start = lineStarts[position.line - 1]
        let end = position.line < lineStarts.count ? lineStarts[position.line] : scalars.count
        return text(0..<start) + text(end..<scalars.count)
    }

    func text(_ range: Range<Int>) -> String {
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars[range])
        return String(result)
    }
}
