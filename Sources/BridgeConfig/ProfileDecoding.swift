import DaydreamProtocol
import EventVocabulary
import Mapping

extension ConfigReader {
    /// The keys of `[profile.NAME]`.
    static let profileKeys = ControllerButton.allCases.map(\.name)
        + ["touchpad", "air-mouse", "gyro", "tilt", "motion-sensors", "pointer", "applications", "chords", "lend"]
    /// `air-mouse = { ... }`.
    static let airMouseFields: [OptionField<AirMouseSettings>] = [
        .number("speed", in: 0.01...100, \.speed),
        .number("deadzone", in: 0...10, \.deadzone),
        .boolean("always", \.always),
        .boolean("invert-x", \.invertX),
        .boolean("invert-y", \.invertY),
        .device(\.device) { _ in [(EventType.rel, EventCode.relX), (EventType.rel, EventCode.relY)] },
    ]
    /// `tilt = { ... }`.
    static let tiltFields: [OptionField<TiltSettings>] = [
        .absoluteAxis("axis", \.axis),
        .choice("source", \.source),
        .number("range", in: 1...180, \.range),
        .number("deadzone", in: 0...90, \.deadzone),
        .boolean("invert", \.invert),
        .device(\.device) { [(EventType.abs, $0.axis)] },
    ]
    /// `pointer = { ... }`.
    static let pointerFields: [OptionField<PointerSettings>] = [
        .number("field-of-view-x", in: 1...180, \.fieldOfViewX),
        .number("field-of-view-y", in: 1...180, \.fieldOfViewY),
        .number("min-cutoff", in: 0.01...100, \.minimumCutoff),
        .number("beta", in: 0...100, \.beta),
        .number("d-cutoff", in: 0.01...100, \.derivativeCutoff),
    ]
    /// The keys of `air-mouse = { ... }`.
    static let airMouseKeys = airMouseFields.map(\.key)
    /// The keys of `tilt = { ... }`.
    static let tiltKeys = tiltFields.map(\.key)
    /// The keys of `pointer = { ... }`.
    static let pointerKeys = pointerFields.map(\.key)

    /// `[profile.NAME]`; nil when anything in it is wrong (every problem is recorded).
    mutating func profile(named name: String, _ value: TOMLValue, at path: KeyPath, scope: DecodingScope) -> Profile? {
        guard let table = table(value, at: path, expected: "a table of profile settings") else { return nil }
        rejectUnknownKeys(in: table, at: path, allowed: Self.profileKeys)
        let errorsBefore = diagnostics.all.count
        var profile = Profile(name: name)
        for button in ControllerButton.allCases {
            guard let entry = table[button.name] else { continue }
            profile[button] = buttonBinding(entry.value, at: path.appending(button.name), scope: scope)
        }
        // Validity is the diagnostics' count, so the reader's own `valid` is not needed here.
        var settings = OptionReader(table: table, path: path)
        settings.decode("touchpad", into: &profile.touchpad, reader: &self) { $0.touchpadMode($1, at: $2) }
        settings.decode("air-mouse", into: &profile.airMouse, reader: &self) { $0.airMouse($1, at: $2) }
        settings.decode("gyro", into: &profile.gyro, reader: &self) { $0.gyro($1, at: $2) }
        settings.decode("tilt", into: &profile.tilt, reader: &self) { $0.tilt($1, at: $2) }
        settings.boolean("motion-sensors", into: &profile.motionSensors, reader: &self)
        settings.decode("pointer", into: &profile.pointer, reader: &self) { $0.pointer($1, at: $2) }
        settings.decode("applications", into: &profile.applications, reader: &self) { $0.applications($1, at: $2) }
        settings.decode("chords", into: &profile.chords, reader: &self) { $0.chords($1, at: $2, scope: scope) }
        settings.boolean("lend", into: &profile.lend, reader: &self)
        checkAxesUsedOnce(profile, table: table, path: path)
        return diagnostics.all.count == errorsBefore ? profile : nil
    }

    /// `applications = ["org.mozilla.firefox", "xonotic*"]`: non-empty patterns.
    private mutating func applications(_ value: TOMLValue, at path: KeyPath) -> [ApplicationPattern] {
        let expected = "a list of application ids like [\"org.mozilla.firefox\", \"steam_app_*\"]"
        guard let items = value.array else {
            mismatch(value, at: path, expected: expected)
            return []
        }
        var patterns: [ApplicationPattern] = []
        for item in items {
            guard let text = string(item, at: path, expected: expected) else { continue }
            guard !text.allSatisfy(\.isWhitespace) else {
                error(at: item.position, "\(path): an empty pattern matches no application; give an app_id or WM_CLASS, like \"org.mozilla.firefox\"")
                continue
            }
            patterns.append(ApplicationPattern(text))
        }
        return patterns
    }

    private mutating func airMouse(_ value: TOMLValue, at path: KeyPath) -> AirMouseSettings? {
        settings(value, at: path, expected: "a table like { speed = 1.0 }", fields: Self.airMouseFields, defaults: AirMouseSettings())
    }

    private mutating func tilt(_ value: TOMLValue, at path: KeyPath) -> TiltSettings? {
        let expected = "a table like { axis = \"ABS_X\", source = \"roll\" }"
        guard let settings = settings(value, at: path, expected: expected, fields: Self.tiltFields, defaults: TiltSettings()) else {
            return nil
        }
        if settings.deadzone >= settings.range, let entry = value.table?["deadzone"] {
            error(at: entry.value.position, "\(path): deadzone (\(Self.format(settings.deadzone)) degrees) must be smaller "
                + "than range (\(Self.format(settings.range)) degrees)")
            return nil
        }
        return settings
    }

    private mutating func pointer(_ value: TOMLValue, at path: KeyPath) -> PointerSettings? {
        let expected = "a table like { field-of-view-x = 40.0, field-of-view-y = 25.0 }"
        return settings(value, at: path, expected: expected, fields: Self.pointerFields, defaults: PointerSettings())
    }

    /// `[profile.NAME.chords]`: `"home+app" = ACTION`, in file order.
    private mutating func chords(_ value: TOMLValue, at path: KeyPath, scope: DecodingScope) -> [Chord] {
        guard let table = table(value, at: path, expected: "a table like { \"home+app\" = \"next-profile\" }") else { return [] }
        var chords: [Chord] = []
        var seen: [(buttons: DaydreamButtons, key: String)] = []
        for entry in table.entries {
            let chordPath = path.appending(entry.key)
            let buttons = chordButtons(entry.key, at: entry.keyPosition, path: chordPath)
            let action = action(entry.value, at: chordPath, scope: scope)
            guard let buttons else { continue }
            if let earlier = seen.first(where: { $0.buttons == buttons }) {
                error(at: entry.keyPosition, "\(chordPath): the same buttons as chord \"\(earlier.key)\"")
                continue
            }
            if let nextProfile = scope.nextProfileChord, nextProfile == buttons {
                error(at: entry.keyPosition, "\(chordPath): these buttons are already [bridge] next-profile")
                continue
            }
            seen.append((buttons, entry.key))
            if let action { chords.append(Chord(buttons: buttons, action: action)) }
        }
        return chords
    }

    /// The buttons of a chord written `"home+app"`, or nil with a diagnostic naming the bad part.
    mutating func chordButtons(_ text: String, at position: SourcePosition, path: KeyPath) -> DaydreamButtons? {
        if let buttons = Chord.buttons(named: text) { return buttons }
        let names = ControllerButton.allCases.map(\.name)
        let parts = text.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        var seen: [String] = []
        for part in parts {
            if part.isEmpty {
                error(at: position, "\(path): '\(text)' has an empty button name; expected names joined by '+', like \"home+app\"")
                return nil
            }
            if !names.contains(part) {
                let suggestion = NearestName.suggestionSuffix(for: part, among: names)
                let tail = suggestion.isEmpty ? "; expected one of \(Self.list(names))" : suggestion
                error(at: position, "\(path): unknown button '\(part)' in chord '\(text)'\(tail)")
                return nil
            }
            if seen.contains(part) {
                error(at: position, "\(path): button '\(part)' appears twice in chord '\(text)'")
                return nil
            }
            seen.append(part)
        }
        error(at: position, "\(path): a chord needs at least two buttons joined by '+', like \"home+app\"")
        return nil
    }

    /// Flags two settings of one profile that write the same absolute axis of one device.
    private mutating func checkAxesUsedOnce(_ profile: Profile, table: TOMLTable, path: KeyPath) {
        var users: [(axis: UInt16, device: OutputDeviceKind, what: String)] = []
        if case .stick(let stick) = profile.touchpad {
            users.append((stick.xAxis, stick.device, "touchpad x-axis"))
            users.append((stick.yAxis, stick.device, "touchpad y-axis"))
        }
        if case .dpad(let dpad) = profile.touchpad, dpad.output == .hat {
            users.append((EventCode.absHat0x, dpad.device, "touchpad d-pad hat"))
            users.append((EventCode.absHat0y, dpad.device, "touchpad d-pad hat"))
        }
        if let tilt = profile.tilt, let entry = table["tilt"] {
            if let user = users.first(where: { $0.axis == tilt.axis && $0.device == tilt.device }) {
                let name = EventCodeNames.name(type: EventCodeNames.absolute, code: tilt.axis)
                error(at: entry.value.position, "\(path.appending("tilt")): \(name) is already the \(user.what) of this profile; "
                    + "give tilt its own axis")
            }
            users.append((tilt.axis, tilt.device, "tilt axis"))
        }
        guard let gyro = profile.gyro, let entry = table["gyro"] else { return }
        if table["air-mouse"] != nil {
            error(at: entry.value.position, "\(path.appending("gyro")): the gyro and air-mouse both move the pointer; "
                + "keep one (gyro = { ... } does all the air mouse does)")
        }
        guard gyro.output != .mouse else { return }
        let axes = gyro.output.stickAxes
        if let user = users.first(where: { ($0.axis == axes.x || $0.axis == axes.y) && $0.device == .gamepad }) {
            error(at: entry.value.position, "\(path.appending("gyro")): the \(gyro.output.rawValue) is already the \(user.what) "
                + "of this profile; send the gyro to the other stick")
        }
    }
}
