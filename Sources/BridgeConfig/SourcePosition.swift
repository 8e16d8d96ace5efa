/// A place in a config file's text: line and column, both counted from 1.
///
/// Zero means unknown (e.g. a value made by the program, not read from a file).
public struct SourcePosition: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column, from 1, in characters as toml++ counts them.
    public var column: Int

    /// A position at `line`, `column`.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// No known position.
    public static let unknown = SourcePosition(line: 0, column: 0)

    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    /// `LINE:COLUMN`.
    public var description: String { "\(line):\(column)" }
}
