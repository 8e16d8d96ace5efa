import EventVocabulary
import Mapping

extension ConfigReader {
    /// The key that names where a setting's output goes.
    static let deviceKey = "device"

    /// `device = "gamepad"` in a setting that emits `codes`: a device kind that can carry them
    /// all, or a diagnostic naming the kinds that can (never the motion sensor or the pointer, which no setting names).
    mutating func outputDevice(_ value: TOMLValue, at path: KeyPath, carrying codes: [(type: UInt16, code: UInt16)]) -> OutputDeviceKind? {
        if let name = value.string, let kind = OutputDeviceKind(name: name), !kind.takesSettings {
            let what = kind == .pointer
                ? "the pointer device carries the controller's orientation alone; set pointer = { ... } in the profile for it"
                : "the \(kind) device carries the controller's sensors alone; set motion-sensors = true in the profile for it"
            error(at: value.position, "\(path): \(what), and name another device here")
            return nil
        }
        guard let name = choice(value, at: path, among: OutputDeviceKind.allCases.filter(\.takesSettings).map(\.description), what: "device"),
              let kind = OutputDeviceKind(name: name) else { return nil }
        let refused = codes.filter { !kind.accepts(type: $0.type, code: $0.code) }
        guard !refused.isEmpty else { return kind }
        let valid = OutputDeviceKind.kinds(accepting: codes).map { "\"\($0)\"" }
        let expected = valid.isEmpty ? "no device carries all of them" : "expected \(Self.list(valid))"
        let codeNames = refused.map { EventCodeNames.name(type: $0.type, code: $0.code) }
        error(at: value.position, "\(path): a \(kind) cannot carry \(codeNames.joined(separator: ", ")) "
            + "(udev would take it for another class); \(expected)")
        return nil
    }
}

extension OptionReader {
    /// Reads `device` into `target` when present, checking that it can carry `codes`.
    mutating func device(into target: inout OutputDeviceKind, carrying codes: [(type: UInt16, code: UInt16)], reader: inout ConfigReader) {
        guard let entry = table[ConfigReader.deviceKey] else { return }
        if let kind = reader.outputDevice(entry.value, at: path.appending(ConfigReader.deviceKey), carrying: codes) {
            target = kind
        } else {
            valid = false
        }
    }
}
