import CTOML

/// A TOML syntax error, as toml++ reports it.
public struct TOMLSyntaxError: Error, Sendable, Equatable {
    /// toml++'s description of the problem.
    public var message: String
    /// Where toml++ stopped.
    public var position: SourcePosition
}

/// A parsed TOML document: its root table, with positions on every key and value.
///
/// Parsed by toml++ through the `CTOML` shim; the tree is copied into Swift
/// values once, so nothing here refers to C memory.
public struct TOMLDocument: Sendable, Equatable {
    /// The document's top-level table.
    public var root: TOMLTable

    /// How many parses called on this thread needed a thread of their own (a text that could
    /// nest deeper than this thread's stack has room for); a config of the usual size needs none.
    static var parseThreadsStarted: UInt { UInt(ctoml_parse_threads_started()) }

    /// Parses `text` (calls `ctoml_parse`).
    public init(parsing text: String) throws(TOMLSyntaxError) {
        try self.init(parsing: Array(text.utf8))
    }

    /// Parses UTF-8 bytes as read from a file; invalid UTF-8 is a syntax error with its position.
    public init(parsing bytes: [UInt8]) throws(TOMLSyntaxError) {
        let count = bytes.count
        let handle = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { ctoml_parse($0.baseAddress, count) }
        }
        guard let handle else {
            throw TOMLSyntaxError(message: "out of memory while parsing", position: .unknown)
        }
        defer { ctoml_free(handle) }
        guard ctoml_succeeded(handle) != 0 else {
            let position = ctoml_error_position(handle)
            throw TOMLSyntaxError(
                message: String(cString: ctoml_error_message(handle)),
                position: SourcePosition(line: Int(position.line), column: Int(position.column))
            )
        }
        let nodes = UnsafeBufferPointer(start: ctoml_nodes(handle), count: ctoml_node_count(handle))
        guard !nodes.isEmpty else {
            root = TOMLTable()
            return
        }
        root = Self.value(at: 0, in: nodes).table ?? TOMLTable()
    }

    private static func value(at index: Int, in nodes: UnsafeBufferPointer<ctoml_node>) -> TOMLValue {
        let node = nodes[index]
        let position = SourcePosition(node.position)
        let end = SourcePosition(node.end_position)
        let children = node.first_child ..< node.first_child + node.child_count
        switch node.kind {
        case CTOML_TABLE:
            let entries = children.map { child in
                TOMLEntry(
                    key: text(nodes[child].key, nodes[child].key_length),
                    keyPosition: SourcePosition(nodes[child].key_position),
                    value: value(at: child, in: nodes)
                )
            }
            return TOMLValue(.table(TOMLTable(entries: entries)), at: position, end: end)
        case CTOML_ARRAY:
            return TOMLValue(.array(children.map { value(at: $0, in: nodes) }), at: position, end: end)
        case CTOML_STRING:
            return TOMLValue(.string(text(node.text, node.text_length)), at: position, end: end)
        case CTOML_INTEGER:
            return TOMLValue(.integer(node.integer), at: position, end: end)
        case CTOML_FLOAT:
            return TOMLValue(.float(node.floating), at: position, end: end)
        case CTOML_BOOLEAN:
            return TOMLValue(.boolean(node.boolean != 0), at: position, end: end)
        case CTOML_DATE:
            return TOMLValue(.date(text(node.text, node.text_length)), at: position, end: end)
        case CTOML_TIME:
            return TOMLValue(.time(text(node.text, node.text_length)), at: position, end: end)
        default:
            return TOMLValue(.dateTime(text(node.text, node.text_length)), at: position, end: end)
        }
    }

    private static func text(_ pointer: UnsafePointer<CChar>?, _ length: Int) -> String {
        guard let pointer else { return "" }
        let bytes = UnsafeRawBufferPointer(start: pointer, count: length)
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension SourcePosition {
    init(_ position: ctoml_position) {
        self.init(line: Int(position.line), column: Int(position.column))
    }
}
