import Mapping
import Timebase

extension ConfigReader {
    /// The keys of `gyro = { ... }`, JoyShockMapper's settings under the project's names.
    static let gyroKeys = [
        "output", "sens", "min-sens", "max-sens", "min-threshold", "max-threshold", "counts-per-degree", "vertical",
        "cutoff-speed", "cutoff-recovery", "smooth-threshold", "smooth-time", "on", "off", "toggle", "space",
        "invert-x", "invert-y", "stick-speed", "undeadzone-inner", "undeadzone-outer", "power", "auto-calibrate",
    ]

    /// `gyro = { ... }` or `[profile.NAME.gyro]`; nil when anything in it is wrong.
    mutating func gyro(_ value: TOMLValue, at path: KeyPath) -> GyroSettings? {
        let expected = "a table like { sens = 2.0, off = \"touch\" }"
        guard var options = options(of: value, at: path, expected: expected, allowed: Self.gyroKeys) else { return nil }
        let table = options.table
        var settings = GyroSettings()
        options.choice("output", into: &settings.output, reader: &self)
        var sens = 1.0
        options.number("sens", in: 0...1000, into: &sens, reader: &self)
        (settings.minSens, settings.maxSens) = (sens, sens)
        options.number("min-sens", in: 0...1000, into: &settings.minSens, reader: &self)
        options.number("max-sens", in: 0...1000, into: &settings.maxSens, reader: &self)
        options.number("min-threshold", in: 0...10_000, into: &settings.minThreshold, reader: &self)
        options.number("max-threshold", in: 0...10_000, into: &settings.maxThreshold, reader: &self)
        options.number("counts-per-degree", in: 0.001...100_000, into: &settings.countsPerDegree, reader: &self)
        options.number("vertical", in: -100...100, into: &settings.vertical, reader: &self)
        options.number("cutoff-speed", in: 0...1000, into: &settings.cutoffSpeed, reader: &self)
        options.number("cutoff-recovery", in: 0...1000, into: &settings.cutoffRecovery, reader: &self)
        options.number("smooth-threshold", in: 0...1000, into: &settings.smoothThreshold, reader: &self)
        if let entry = table["smooth-time"] {
            if let span = duration(entry.value, at: path.appending("smooth-time"), in: .milliseconds(1)...TimeSpan.seconds(1)) {
                settings.smoothTime = span
            } else {
                options.valid = false
            }
        }
        options.choice("space", into: &settings.space, reader: &self)
        options.boolean("invert-x", into: &settings.invertX, reader: &self)
        options.boolean("invert-y", into: &settings.invertY, reader: &self)
        options.boolean("auto-calibrate", into: &settings.autoCalibrate, reader: &self)
        options.number("stick-speed", in: 1...10_000, into: &settings.stickSpeed, reader: &self)
        options.number("undeadzone-inner", in: 0...1, into: &settings.undeadzoneInner, reader: &self)
        options.number("undeadzone-outer", in: 0...1, into: &settings.undeadzoneOuter, reader: &self)
        options.number("power", in: 0.1...10, into: &settings.power, reader: &self)
        if let enabling = gyroSwitch(table, at: path) { settings.enabling = enabling } else { options.valid = false }
        guard options.valid else { return nil }
        if settings.minThreshold > settings.maxThreshold, let entry = table["min-threshold"] {
            error(at: entry.value.position, "\(path): min-threshold (\(Self.format(settings.minThreshold))) must not be above "
                + "max-threshold (\(Self.format(settings.maxThreshold)))")
            return nil
        }
        if settings.undeadzoneInner >= settings.undeadzoneOuter, let entry = table["undeadzone-inner"] ?? table["undeadzone-outer"] {
            error(at: entry.value.position, "\(path): undeadzone-inner (\(Self.format(settings.undeadzoneInner))) must be below "
                + "undeadzone-outer (\(Self.format(settings.undeadzoneOuter)))")
            return nil
        }
        return settings
    }

    /// `on`, `off` or `toggle` (at most one): a button's name, or `off = "touch"`; nil after a diagnostic.
    private mutating func gyroSwitch(_ table: TOMLTable, at path: KeyPath) -> GyroSwitch? {
        let given = ["on", "off", "toggle"].compactMap { key in table[key].map { (key, $0) } }
        guard let (key, entry) = given.first else { return .always }
        if given.count > 1 {
            error(at: given[1].1.keyPosition, "\(path): give one of on, off and toggle, not \(given.map(\.0).joined(separator: " and "))")
            return nil
        }
        let buttons = ControllerButton.allCases.map(\.name)
        let choices = key == "off" ? buttons + ["touch"] : buttons
        guard let name = choice(entry.value, at: path.appending(key), among: choices, what: "gyro \(key) button") else { return nil }
        if name == "touch" { return .offWhileTouched }
        guard let button = ControllerButton(name: name) else { return nil }
        switch key {
        case "on": return .onWhileHeld(button)
        case "off": return .offWhileHeld(button)
        default: return .toggle(button)
        }
    }
}
