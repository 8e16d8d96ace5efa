import Timebase

/// Reads the optional keys of one options table, keeping the defaults for absent keys
/// and noting whether every present key was valid.
struct OptionReader {
    let table: TOMLTable
    let path: KeyPath
    var valid = true

    init(table: TOMLTable, path: KeyPath) {
        self.table = table
        self.path = path
    }

    /// `key`, when present, read by `read` (given the value and its path) into `target`; a value
    /// `read` refuses (nil, its diagnostic recorded) leaves `target` and makes `valid` false.
    mutating func decode<Value>(
        _ key: String, into target: inout Value, reader: inout ConfigReader,
        _ read: (inout ConfigReader, TOMLValue, KeyPath) -> Value?
    ) {
        guard let entry = table[key] else { return }
        if let value = read(&reader, entry.value, path.appending(key)) { target = value } else { valid = false }
    }

    mutating func number(_ key: String, in range: ClosedRange<Double>, into target: inout Double, reader: inout ConfigReader) {
        decode(key, into: &target, reader: &reader) { $0.number($1, at: $2, in: range) }
    }

    mutating func boolean(_ key: String, into target: inout Bool, reader: inout ConfigReader) {
        decode(key, into: &target, reader: &reader) { $0.boolean($1, at: $2) }
    }

    mutating func choice<Choice: RawRepresentable & CaseIterable>(_ key: String, into target: inout Choice, reader: inout ConfigReader)
    where Choice.RawValue == String {
        let names = Choice.allCases.map(\.rawValue)
        decode(key, into: &target, reader: &reader) { reader, value, path in
            reader.choice(value, at: path, among: names, what: key).flatMap(Choice.init(rawValue:))
        }
    }

    mutating func duration(_ key: String, in range: ClosedRange<TimeSpan>, into target: inout TimeSpan, reader: inout ConfigReader) {
        decode(key, into: &target, reader: &reader) { $0.duration($1, at: $2, in: range) }
    }

    mutating func absoluteAxis(_ key: String, into target: inout UInt16, reader: inout ConfigReader) {
        decode(key, into: &target, reader: &reader) { $0.absoluteAxis($1, at: $2) }
    }
}

extension ConfigReader {
    /// The options of `value` at `path`: a reader over it when it is a table (its keys
    /// outside `allowed` flagged), or nil with a diagnostic saying `expected`.
    mutating func options(of value: TOMLValue, at path: KeyPath, expected: String, allowed: [String]) -> OptionReader? {
        guard let table = table(value, at: path, expected: expected) else { return nil }
        rejectUnknownKeys(in: table, at: path, allowed: allowed)
        return OptionReader(table: table, path: path)
    }
}
