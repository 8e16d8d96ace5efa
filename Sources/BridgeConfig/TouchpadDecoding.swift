import EventVocabulary
import Mapping
import Timebase

extension ConfigReader {
    /// The options each touchpad mode takes besides `mode`.
    static let touchpadOptions: [(mode: String, keys: [String])] = [
        ("none", []),
        ("stick", ["deadzone", "saturation", "shape", "x-axis", "y-axis", deviceKey]),
        ("dpad", ["directions", "activation", "output", "deadzone", deviceKey]),
        ("trackpad", ["speed", "acceleration", deviceKey]),
        ("scroll", ["detents", "natural", "horizontal", deviceKey]),
        ("wheel", ["detents", "reverse", "horizontal", "deadzone", deviceKey]),
        ("flick", ["rim", "flick-time", "snap", "snap-strength", "counts-per-degree"]),
        ("touchpad", []),
    ]

    /// `touchpad = { mode = "...", ... }`.
    mutating func touchpadMode(_ value: TOMLValue, at path: KeyPath) -> TouchpadMode? {
        guard let table = table(value, at: path, expected: "a table like { mode = \"stick\" }") else { return nil }
        guard let modeEntry = table["mode"] else {
            error(at: value.position, "\(path): missing key 'mode'; expected one of \(Self.list(TouchpadMode.modeNames))")
            let allOptions = Self.touchpadOptions.flatMap(\.keys)
            rejectUnknownKeys(in: table, at: path, allowed: ["mode"] + allOptions)
            return nil
        }
        guard let mode = choice(modeEntry.value, at: path.appending("mode"), among: TouchpadMode.modeNames, what: "touchpad mode") else {
            return nil
        }
        let options = Self.touchpadOptions.first { $0.mode == mode }?.keys ?? []
        rejectModeOptions(in: table, at: path, mode: mode, allowed: options)
        var reader = OptionReader(table: table, path: path)
        let result: TouchpadMode
        switch mode {
        case "stick": result = .stick(stick(&reader))
        case "dpad": result = .dpad(dpad(&reader))
        case "trackpad": result = .trackpad(trackpad(&reader))
        case "scroll": result = .scroll(scroll(&reader))
        case "wheel": result = .wheel(wheel(&reader))
        case "flick": result = .flick(flick(&reader))
        case "touchpad": result = .touchpad
        default: result = .none
        }
        return reader.valid ? result : nil
    }

    /// Unknown keys, telling an option of another mode from a misspelling.
    private mutating func rejectModeOptions(in table: TOMLTable, at path: KeyPath, mode: String, allowed: [String]) {
        let known = ["mode"] + allowed
        for entry in table.entries where !known.contains(entry.key) {
            let otherModes = Self.touchpadOptions.filter { $0.keys.contains(entry.key) }.map(\.mode)
            if !otherModes.isEmpty {
                let choices = allowed.isEmpty ? "it takes no options" : "its options: \(allowed.joined(separator: ", "))"
                error(at: entry.keyPosition, "\(path): '\(entry.key)' is not an option of mode \"\(mode)\" "
                    + "(only of \(otherModes.map { "\"\($0)\"" }.joined(separator: ", "))); \(choices)")
            } else {
                let suggestion = NearestName.suggestionSuffix(for: entry.key, among: known)
                let tail = suggestion.isEmpty ? "; expected one of: \(known.joined(separator: ", "))" : suggestion
                error(at: entry.keyPosition, "unknown key '\(entry.key)' in \(path.tableHeader) (mode \"\(mode)\")\(tail)")
            }
        }
    }

    private mutating func stick(_ options: inout OptionReader) -> StickOptions {
        var stick = StickOptions()
        options.number("deadzone", in: 0...0.95, into: &stick.deadzone, reader: &self)
        options.number("saturation", in: 0.05...1, into: &stick.saturation, reader: &self)
        options.choice("shape", into: &stick.shape, reader: &self)
        options.absoluteAxis("x-axis", into: &stick.xAxis, reader: &self)
        options.absoluteAxis("y-axis", into: &stick.yAxis, reader: &self)
        if stick.deadzone >= stick.saturation, let entry = options.table["deadzone"] ?? options.table["saturation"] {
            error(at: entry.value.position, "\(options.path): deadzone (\(Self.format(stick.deadzone))) must be smaller than "
                + "saturation (\(Self.format(stick.saturation)))")
            options.valid = false
        }
        if stick.xAxis == stick.yAxis, let entry = options.table["y-axis"] ?? options.table["x-axis"] {
            error(at: entry.value.position, "\(options.path): x-axis and y-axis are the same axis")
            options.valid = false
        }
        options.device(into: &stick.device, carrying: [(EventType.abs, stick.xAxis), (EventType.abs, stick.yAxis)], reader: &self)
        return stick
    }

    private mutating func dpad(_ options: inout OptionReader) -> DpadOptions {
        var dpad = DpadOptions()
        if let entry = options.table["directions"] {
            let path = options.path.appending("directions")
            if let directions = entry.value.integer, directions == 4 || directions == 8 {
                dpad.directions = Int(directions)
            } else {
                mismatch(entry.value, at: path, expected: "4 or 8")
                options.valid = false
            }
        }
        options.choice("activation", into: &dpad.activation, reader: &self)
        options.choice("output", into: &dpad.output, reader: &self)
        if dpad.output == .buttons, let pad = gamepadIdentity.fixedPad {
            let position = options.table["output"]?.value.position ?? options.table["mode"]?.value.position ?? .unknown
            error(at: position, "\(options.path): a d-pad of buttons (BTN_DPAD_*) is not part of \(pad.description) "
                + "([gamepad] identity = \"\(pad.identity.rawValue)\"); use output = \"hat\"")
            options.valid = false
        }
        options.number("deadzone", in: 0...0.95, into: &dpad.deadzone, reader: &self)
        let codes: [(type: UInt16, code: UInt16)] = switch dpad.output {
        case .buttons: (EventCode.btnDpadUp...EventCode.btnDpadRight).map { (EventType.key, $0) }
        case .hat: [(EventType.abs, EventCode.absHat0x), (EventType.abs, EventCode.absHat0y)]
        }
        options.device(into: &dpad.device, carrying: codes, reader: &self)
        return dpad
    }

    private mutating func trackpad(_ options: inout OptionReader) -> TrackpadOptions {
        var trackpad = TrackpadOptions()
        options.number("speed", in: 0.01...100, into: &trackpad.speed, reader: &self)
        options.number("acceleration", in: 0.1...5, into: &trackpad.acceleration, reader: &self)
        options.device(into: &trackpad.device, carrying: [(EventType.rel, EventCode.relX), (EventType.rel, EventCode.relY)], reader: &self)
        return trackpad
    }

    private mutating func scroll(_ options: inout OptionReader) -> ScrollOptions {
        var scroll = ScrollOptions()
        options.number("detents", in: 0.1...1000, into: &scroll.detents, reader: &self)
        options.boolean("natural", into: &scroll.natural, reader: &self)
        wheelOutput(&options, into: &scroll)
        return scroll
    }

    private mutating func flick(_ options: inout OptionReader) -> FlickOptions {
        var flick = FlickOptions()
        options.number("rim", in: 0.1...1, into: &flick.rim, reader: &self)
        options.duration("flick-time", in: .milliseconds(1)...TimeSpan.seconds(1), into: &flick.flickTime, reader: &self)
        options.choice("snap", into: &flick.snap, reader: &self)
        options.number("snap-strength", in: 0...1, into: &flick.snapStrength, reader: &self)
        var counts = flick.countsPerDegree ?? 0
        options.number("counts-per-degree", in: 0.001...100_000, into: &counts, reader: &self)
        if counts > 0 { flick.countsPerDegree = counts }
        return flick
    }

    private mutating func wheel(_ options: inout OptionReader) -> WheelOptions {
        var wheel = WheelOptions()
        options.number("detents", in: 1...360, into: &wheel.detents, reader: &self)
        options.boolean("reverse", into: &wheel.reverse, reader: &self)
        options.number("deadzone", in: 0...0.95, into: &wheel.deadzone, reader: &self)
        wheelOutput(&options, into: &wheel)
        return wheel
    }

    /// `horizontal`, then `device`, which must carry the wheels `horizontal` picks.
    private mutating func wheelOutput(_ options: inout OptionReader, into wheels: inout some WheelOutputOptions) {
        options.boolean("horizontal", into: &wheels.horizontal, reader: &self)
        options.device(into: &wheels.device, carrying: wheels.wheelCodes.map { (EventType.rel, $0) }, reader: &self)
    }

    /// An `ABS_*` code by name that the gamepad can carry (not a multitouch axis).
    mutating func absoluteAxis(_ value: TOMLValue, at path: KeyPath) -> UInt16? {
        guard let name = string(value, at: path, expected: "an absolute axis like \"ABS_X\"") else { return nil }
        let absolute = EventCodeNames.absolute
        guard let axis = EventCodeNames.resolve(name, types: [absolute]) else {
            if let other = EventCodeNames.resolve(name, types: [EventCodeNames.key, EventCodeNames.relative]) {
                let kind = other.type == EventCodeNames.key ? "a key or button" : "a relative axis"
                error(at: value.position, "\(path): \(name) is \(kind), not an absolute axis; expected an ABS_* code like \"ABS_X\"")
            } else if let suggestion = EventCodeNames.suggestion(for: name, types: [absolute]) {
                error(at: value.position, "\(path): unknown absolute axis \(name); did you mean \(suggestion)?")
            } else {
                error(at: value.position, "\(path): unknown absolute axis \(name); expected an ABS_* code like \"ABS_X\"")
            }
            return nil
        }
        guard axis.code < Self.firstMultitouchAxis, OutputDeviceKind.route(type: absolute, code: axis.code) == .gamepad else {
            error(at: value.position, "\(path): \(name) is a multitouch axis, which a gamepad does not carry; "
                + "expected a stick, trigger or hat axis like \"ABS_X\", \"ABS_RZ\" or \"ABS_HAT0X\"")
            return nil
        }
        // Sticks and tilt write the full stick range: only the pad's stick axes have it.
        if let pad = gamepadIdentity.fixedPad, !pad.axes(withRangeOf: .stick).contains(axis.code) {
            let what = pad.capabilities.absInfo(axis.code) == nil ? "an axis" : "a stick axis"
            error(at: value.position, "\(path): \(name) is not \(what) of \(pad.description) "
                + "([gamepad] identity = \"\(pad.identity.rawValue)\"); "
                + "expected one of \(pad.axisNames(withRangeOf: .stick).joined(separator: ", "))")
            return nil
        }
        return axis.code
    }

    /// `ABS_MT_SLOT`: the multitouch axes start here.
    static let firstMultitouchAxis = EventCode.absMtSlot
}
