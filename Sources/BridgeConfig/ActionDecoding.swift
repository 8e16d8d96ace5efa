import DaydreamProtocol
import EventVocabulary
import Mapping
import Timebase

/// What the decoder knows about the whole file while it reads one value.
struct DecodingScope {
    /// Every `[profile.NAME]` name, in file order.
    var profileNames: [String]
    /// `[bridge] next-profile`, when valid.
    var nextProfileChord: DaydreamButtons?
}

extension ConfigReader {
    /// Special action names as a user writes them, for suggestions and messages.
    static let specialActionNames = Action.specialNames.map(\.name) + ["\(Action.profilePrefix)NAME"]

    /// What an action may be, for messages.
    static let actionExpectation = "an event code like \"BTN_SOUTH\" or \"KEY_A\", a list of them pressed together, "
        + "or one of \(specialActionNames.joined(separator: ", "))"

    /// An action: a code name, a list of code names, or a special name.
    mutating func action(_ value: TOMLValue, at path: KeyPath, scope: DecodingScope) -> Action? {
        switch value.content {
        case .string(let text):
            if let special = Action(specialName: text) {
                if case .profile(let name) = special, !scope.profileNames.contains(name) {
                    unknownProfile(name, at: value.position, path: path, scope: scope)
                    return nil
                }
                return special
            }
            if text.hasPrefix(Action.profilePrefix) {
                error(at: value.position, "\(path): \"\(text)\" names no profile; expected \"\(Action.profilePrefix)NAME\"")
                return nil
            }
            if let code = keyCode(text, at: value.position, path: path, allowingSpecialNames: true) {
                return .keys([code])
            }
            return nil
        case .array(let elements):
            return combination(elements, at: value, path: path)
        default:
            mismatch(value, at: path, expected: Self.actionExpectation)
            return nil
        }
    }

    /// `["KEY_LEFTCTRL", "KEY_C"]`: keys pressed in order, released in reverse.
    private mutating func combination(_ elements: [TOMLValue], at value: TOMLValue, path: KeyPath) -> Action? {
        guard !elements.isEmpty else {
            error(at: value.position, "\(path): expected at least one event code in the list, like [\"KEY_LEFTCTRL\", \"KEY_C\"]")
            return nil
        }
        var codes: [UInt16] = []
        var valid = true
        for (index, element) in elements.enumerated() {
            let elementPath = path.appending(index: index)
            guard let name = string(element, at: elementPath, expected: "an event code like \"KEY_LEFTCTRL\"") else {
                valid = false
                continue
            }
            if Action(specialName: name) != nil {
                error(at: element.position, "\(elementPath): '\(name)' is an action, not an event code; "
                    + "a list holds only event codes pressed together")
                valid = false
                continue
            }
            guard let code = keyCode(name, at: element.position, path: elementPath, allowingSpecialNames: false) else {
                valid = false
                continue
            }
            if codes.contains(code) {
                error(at: element.position, "\(elementPath): \(name) is already in this combination")
                valid = false
                continue
            }
            codes.append(code)
        }
        return valid ? .keys(codes) : nil
    }

    /// An `EV_KEY` code by name, that the bridge can emit on one of its devices.
    mutating func keyCode(_ name: String, at position: SourcePosition, path: KeyPath, allowingSpecialNames: Bool) -> UInt16? {
        let key = EventCodeNames.key
        if let resolved = EventCodeNames.resolve(name, types: [key]) {
            guard let device = OutputDeviceKind.routeKey(resolved.code) else {
                error(at: position, "\(path): \(name) is a code no device of the bridge carries (tablet, touchscreen or reserved); "
                    + "expected a key (KEY_*), a mouse button (BTN_LEFT...) or a gamepad button (BTN_SOUTH...)")
                return nil
            }
            if device == .gamepad, let pad = gamepadIdentity.fixedPad, !pad.capabilities.hasKey(resolved.code) {
                error(at: position, "\(path): \(name) is not a button of \(pad.description) "
                    + "([gamepad] identity = \"\(pad.identity.rawValue)\"); "
                    + "expected one of \(pad.buttonNames.joined(separator: ", "))")
                return nil
            }
            return resolved.code
        }
        let others = [EventCodeNames.relative, EventCodeNames.absolute]
        if let axis = EventCodeNames.resolve(name, types: others) {
            let kind = axis.type == EventCodeNames.relative ? "a relative axis" : "an absolute axis"
            error(at: position, "\(path): \(name) is \(kind), not a key or button; a button press needs a KEY_* or BTN_* code")
            return nil
        }
        if allowingSpecialNames, name.contains("-") || name == name.lowercased(),
           let nearest = NearestName.nearest(to: name, among: Self.specialActionNames) {
            error(at: position, "\(path): unknown action '\(name)'; did you mean '\(nearest)'?")
            return nil
        }
        if let suggestion = EventCodeNames.suggestion(for: name, types: [key]) {
            error(at: position, "\(path): unknown event code \(name); did you mean \(suggestion)?")
        } else if allowingSpecialNames {
            error(at: position, "\(path): unknown action or event code '\(name)'; expected \(Self.actionExpectation)")
        } else {
            error(at: position, "\(path): unknown event code \(name); expected a KEY_* or BTN_* name from linux/input-event-codes.h")
        }
        return nil
    }

    /// Records "no profile named X", suggesting the nearest defined one.
    mutating func unknownProfile(_ name: String, at position: SourcePosition, path: KeyPath, scope: DecodingScope) {
        let defined = scope.profileNames
        let tail: String
        if let nearest = NearestName.nearest(to: name, among: defined) {
            tail = "; did you mean '\(nearest)'?"
        } else if defined.isEmpty {
            tail = "; the file defines no [profile.NAME]"
        } else {
            tail = "; defined profiles: \(defined.joined(separator: ", "))"
        }
        error(at: position, "\(path): no profile named '\(name)'\(tail)")
    }

    /// Keys of a `{ tap = ..., hold = ..., hold-time = ... }` binding.
    static let tapHoldKeys = ["tap", "hold", "hold-time"]

    /// Hold times accepted: long enough to tell from a tap, short enough to be meant.
    static let holdTimeRange: ClosedRange<TimeSpan> = .milliseconds(50) ... .seconds(10)

    /// Tap times accepted: at least a frame of a 100 fps game, at most a second.
    static let tapTimeRange: ClosedRange<TimeSpan> = .milliseconds(10) ... .seconds(1)

    /// Chord windows accepted: from less than one report of the controller (only buttons
    /// in the same report make a chord) to a second.
    static let chordWindowRange: ClosedRange<TimeSpan> = .milliseconds(10) ... .seconds(1)

    /// A button binding: an action, or `{ tap = ACTION, hold = ACTION, hold-time = "500ms" }`.
    mutating func buttonBinding(_ value: TOMLValue, at path: KeyPath, scope: DecodingScope) -> ButtonBinding? {
        guard let table = value.table else {
            return action(value, at: path, scope: scope).map { .plain($0) }
        }
        rejectUnknownKeys(in: table, at: path, allowed: Self.tapHoldKeys)
        var valid = true
        var tap: Action?
        var hold: Action?
        var holdTime: TimeSpan?
        if let entry = table["tap"] {
            tap = action(entry.value, at: path.appending("tap"), scope: scope)
            if tap == nil { valid = false }
            if tap == .airMouse {
                error(at: entry.value.position, "\(path.appending("tap")): air-mouse lasts while a button is held, "
                    + "so it cannot be a tap; use it as the plain binding or as hold")
                valid = false
            }
        }
        if let entry = table["hold"] {
            hold = action(entry.value, at: path.appending("hold"), scope: scope)
            if hold == nil { valid = false }
        }
        if let entry = table["hold-time"] {
            holdTime = duration(entry.value, at: path.appending("hold-time"), in: Self.holdTimeRange)
            if holdTime == nil { valid = false }
        }
        if table["tap"] == nil && table["hold"] == nil {
            error(at: value.position, "\(path): expected tap, hold or both in { tap = ..., hold = ... }")
            valid = false
        }
        return valid ? .tapHold(tap: tap, hold: hold, holdTime: holdTime) : nil
    }
}
