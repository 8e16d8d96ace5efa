/// One problem found in a config file: where it is and what is wrong.
///
/// The message names the key path, what was expected and, when there is one,
/// the nearest valid choice.
public struct ConfigDiagnostic: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the problem is written.
    public var position: SourcePosition
    /// What is wrong, e.g. `profile.gamepad.click: unknown event code BTN_SOTH; did you mean BTN_SOUTH?`.
    public var message: String

    /// A problem at `position`.
    public init(at position: SourcePosition, _ message: String) {
        self.position = position
        self.message = message
    }

    /// The line `check-config` prints: `FILE:LINE:COLUMN: error: MESSAGE`.
    public func formatted(file: String) -> String {
        "\(file):\(position.line):\(position.column): error: \(message)"
    }

    /// `LINE:COLUMN: error: MESSAGE`.
    public var description: String { "\(position): error: \(message)" }
}

/// The diagnostics of one config, in the order they are written in the file.
public struct ConfigDiagnostics: Sendable, Equatable {
    /// Every problem, sorted by position (then in the order found).
    public private(set) var all: [ConfigDiagnostic] = []

    /// No problems yet.
    public init() {}

    /// True when no problem was found.
    public var isEmpty: Bool { all.isEmpty }

    /// Records a problem at `position`.
    public mutating func error(at position: SourcePosition, _ message: String) {
        let diagnostic = ConfigDiagnostic(at: position, message)
        let index = all.firstIndex { diagnostic.position < $0.position } ?? all.endIndex
        all.insert(diagnostic, at: index)
    }

    /// Every problem as `check-config` prints it, one line each.
    public func formatted(file: String) -> [String] {
        all.map { $0.formatted(file: file) }
    }
}
