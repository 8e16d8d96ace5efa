import DaydreamProtocol
import Foundation
import Mapping
import Timebase

/// A golden timeline: a configuration, input steps with virtual time, and the expected output.
///
/// ```
/// # comment
/// bridge hold-time=1000ms tap-time=100ms chord-window=40ms next-profile=home+app default=NAME
/// profile NAME                      (the following lines configure it)
/// bind BUTTON ACTION                (ACTION: CODE, CODE+CODE, or a special name)
/// bind BUTTON tap=ACTION hold=ACTION hold-time=500ms
/// chord home+app ACTION
/// touchpad MODE key=value ...
/// air-mouse key=value ...
/// tilt key=value ...
/// start NAME                        (the profile the engine starts in)
///
/// 0ms    press home; touch 0.5 0.25  (one snapshot; also: release, lift, gyro X Y Z rad/s, orient X Y Z degrees,
///                                    stamp MS: the controller's clock, 0...511, from then on; stamp none: unknown)
/// 1500ms advance                     (only timers)
/// 1500ms release-all | switch NAME | deadline   (deadline prints "=> TIME deadline 2500ms" or "none")
/// => 200ms gamepad BTN_MODE 1        (expected: time, device, code name, value)
/// => 200ms gamepad SYN_REPORT
/// => 200ms notice profile gamepad -> mouse
/// ```
/// Before each step the runner fires every deadline up to the step's time at the deadline, as the daemon's timer would.
struct Timeline {
    var configuration = MappingConfiguration(profiles: [])
    var startProfile: String?
    var steps: [Step] = []
    var expected: [String] = []

    struct Step {
        var line: Int
        var time: MonotonicTime
        var commands: [Command]
    }

    enum Command {
        case press(DaydreamButtons)
        case release(DaydreamButtons)
        case touch(TouchPoint)
        case lift
        case gyro(Vector3)
        case orient(Vector3)
        case stamp(UInt16?)
        case advance
        case releaseAll
        case switchProfile(String)
        case reportDeadline
    }
}

struct TimelineError: Error, CustomStringConvertible {
    var line: Int
    var message: String
    var description: String { "line \(line): \(message)" }
}

extension Timeline {
    init(text: String) throws {
        var sawStep = false
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first
                .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            guard !line.isEmpty else { continue }
            if line.hasPrefix("=>") {
                expected.append(Self.normalized(String(line.dropFirst(2))))
            } else if let first = line.first, first.isNumber {
                sawStep = true
                try steps.append(Self.step(line, number: number))
            } else {
                guard !sawStep else { throw TimelineError(line: number, message: "setup after the first step") }
                try setup(line, number: number)
            }
        }
    }

    static func normalized(_ text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    // MARK: Setup

    private mutating func setup(_ line: String, number: Int) throws {
        let words = line.split(separator: " ").map(String.init)
        let fail = { (message: String) in TimelineError(line: number, message: message) }
        var options: [(String, String)] {
            get throws { try Self.options(words.dropFirst(), number: number) }
        }
        func lastProfile() throws -> Int {
            guard !configuration.profiles.isEmpty else { throw fail("no profile yet") }
            return configuration.profiles.count - 1
        }
        switch words[0] {
        case "bridge":
            for (key, value) in try options {
                switch key {
                case "hold-time": configuration.holdTime = try Self.span(value, number: number)
                case "tap-time": configuration.tapTime = try Self.span(value, number: number)
                case "chord-window": configuration.chordWindow = try Self.span(value, number: number)
                case "next-profile": configuration.nextProfileChord = try Self.chord(value, number: number)
                case "default": configuration.defaultProfile = value
                default: throw fail("unknown bridge option \(key)")
                }
            }
        case "profile":
            guard words.count == 2 else { throw fail("profile NAME") }
            configuration.profiles.append(Profile(name: words[1]))
        case "start":
            guard words.count == 2 else { throw fail("start NAME") }
            startProfile = words[1]
        case "bind":
            guard words.count >= 3, let button = ControllerButton(name: words[1]) else { throw fail("bind BUTTON ACTION") }
            let binding: ButtonBinding
            if words.count == 3, !words[2].contains("=") {
                binding = .plain(try Self.action(words[2], number: number))
            } else {
                var tap: Action?
                var hold: Action?
                var time: TimeSpan?
                for (key, value) in try Self.options(words.dropFirst(2), number: number) {
                    switch key {
                    case "tap": tap = try Self.action(value, number: number)
                    case "hold": hold = try Self.action(value, number: number)
                    case "hold-time": time = try Self.span(value, number: number)
                    default: throw fail("unknown bind option \(key)")
                    }
                }
                binding = .tapHold(tap: tap, hold: hold, holdTime: time)
            }
            configuration.profiles[try lastProfile()][button] = binding
        case "chord":
            guard words.count == 3 else { throw fail("chord BUTTON+BUTTON ACTION") }
            let chord = Chord(buttons: try Self.chord(words[1], number: number), action: try Self.action(words[2], number: number))
            configuration.profiles[try lastProfile()].chords.append(chord)
        case "touchpad":
            guard words.count >= 2 else { throw fail("touchpad MODE options") }
            let modeOptions = try Self.options(words.dropFirst(2), number: number)
            configuration.profiles[try lastProfile()].touchpad = try Self.touchpad(words[1], modeOptions, number: number)
        case "air-mouse":
            var settings = AirMouseSettings()
            for (key, value) in try options {
                switch key {
                case "speed": settings.speed = try Self.number(value, number: number)
                case "deadzone": settings.deadzone = try Self.number(value, number: number)
                case "always": settings.always = value == "true"
                case "invert-x": settings.invertX = value == "true"
                case "invert-y": settings.invertY = value == "true"
                default: throw fail("unknown air-mouse option \(key)")
                }
            }
            configuration.profiles[try lastProfile()].airMouse = settings
        case "tilt":
            var settings = TiltSettings()
            for (key, value) in try options {
                switch key {
                case "axis": settings.axis = try Self.absolute(value, number: number)
                case "source":
                    guard let source = TiltSource(rawValue: value) else { throw fail("bad source \(value)") }
                    settings.source = source
                case "range": settings.range = try Self.number(value, number: number)
                case "deadzone": settings.deadzone = try Self.number(value, number: number)
                case "invert": settings.invert = value == "true"
                default: throw fail("unknown tilt option \(key)")
                }
            }
            configuration.profiles[try lastProfile()].tilt = settings
        default:
            throw fail("unknown setup line \(words[0])")
        }
    }

    private static func touchpad(_ mode: String, _ options: [(String, String)], number: Int) throws -> TouchpadMode {
        let fail = { (message: String) in TimelineError(line: number, message: message) }
        switch mode {
        case "none":
            return .none
        case "stick":
            var stick = StickOptions()
            for (key, value) in options {
                switch key {
                case "deadzone": stick.deadzone = try Self.number(value, number: number)
                case "saturation": stick.saturation = try Self.number(value, number: number)
                case "shape":
                    guard let shape = StickShape(rawValue: value) else { throw fail("bad shape \(value)") }
                    stick.shape = shape
                case "x-axis": stick.xAxis = try Self.absolute(value, number: number)
                case "y-axis": stick.yAxis = try Self.absolute(value, number: number)
                default: throw fail("unknown stick option \(key)")
                }
            }
            return .stick(stick)
        case "dpad":
            var dpad = DpadOptions()
            for (key, value) in options {
                switch key {
                case "directions": dpad.directions = Int(try Self.number(value, number: number))
                case "deadzone": dpad.deadzone = try Self.number(value, number: number)
                case "activation":
                    guard let activation = DpadActivation(rawValue: value) else { throw fail("bad activation \(value)") }
                    dpad.activation = activation
                case "output":
                    guard let output = DpadOutput(rawValue: value) else { throw fail("bad output \(value)") }
                    dpad.output = output
                default: throw fail("unknown dpad option \(key)")
                }
            }
            return .dpad(dpad)
        case "trackpad":
            var trackpad = TrackpadOptions()
            for (key, value) in options {
                switch key {
                case "speed": trackpad.speed = try Self.number(value, number: number)
                case "acceleration": trackpad.acceleration = try Self.number(value, number: number)
                default: throw fail("unknown trackpad option \(key)")
                }
            }
            return .trackpad(trackpad)
        case "scroll":
            var scroll = ScrollOptions()
            for (key, value) in options {
                switch key {
                case "detents": scroll.detents = try Self.number(value, number: number)
                case "natural": scroll.natural = value == "true"
                case "horizontal": scroll.horizontal = value == "true"
                default: throw fail("unknown scroll option \(key)")
                }
            }
            return .scroll(scroll)
        case "wheel":
            var wheel = WheelOptions()
            for (key, value) in options {
                switch key {
                case "detents": wheel.detents = try Self.number(value, number: number)
                case "reverse": wheel.reverse = value == "true"
                case "horizontal": wheel.horizontal = value == "true"
                case "deadzone": wheel.deadzone = try Self.number(value, number: number)
                default: throw fail("unknown wheel option \(key)")
                }
            }
            return .wheel(wheel)
        default:
            throw fail("unknown touchpad mode \(mode)")
        }
    }

    // MARK: Steps

    private static func step(_ line: String, number: Int) throws -> Step {
        let fail = { (message: String) in TimelineError(line: number, message: message) }
        guard let space = line.firstIndex(of: " ") else { throw fail("TIME COMMAND") }
        let time = MonotonicTime(nanoseconds: try span(String(line[..<space]), number: number).nanoseconds)
        var commands: [Command] = []
        for part in line[space...].split(separator: ";") {
            let words = part.split(separator: " ").map(String.init)
            guard let verb = words.first else { throw fail("empty command") }
            let arguments = Array(words.dropFirst())
            func vector() throws -> Vector3 {
                guard arguments.count == 3 else { throw fail("\(verb) X Y Z") }
                return Vector3(x: try Self.number(arguments[0], number: number),
                               y: try Self.number(arguments[1], number: number),
                               z: try Self.number(arguments[2], number: number))
            }
            func buttons() throws -> DaydreamButtons {
                var set: DaydreamButtons = []
                for name in arguments {
                    guard let button = ControllerButton(name: name) else { throw fail("unknown button \(name)") }
                    set.insert(button.mask)
                }
                guard !set.isEmpty else { throw fail("\(verb) BUTTON...") }
                return set
            }
            switch verb {
            case "press": commands.append(.press(try buttons()))
            case "release": commands.append(.release(try buttons()))
            case "touch":
                guard arguments.count == 2 else { throw fail("touch X Y") }
                commands.append(.touch(TouchPoint(x: try Self.number(arguments[0], number: number),
                                                  y: try Self.number(arguments[1], number: number))))
            case "lift": commands.append(.lift)
            case "gyro": commands.append(.gyro(try vector()))
            case "orient": commands.append(.orient(try vector()))
            case "stamp":
                guard arguments.count == 1 else { throw fail("stamp MS|none") }
                if arguments[0] == "none" {
                    commands.append(.stamp(nil))
                } else {
                    guard let stamp = UInt16(arguments[0]), stamp < 512 else { throw fail("stamp: 0...511 or none") }
                    commands.append(.stamp(stamp))
                }
            case "advance": commands.append(.advance)
            case "release-all": commands.append(.releaseAll)
            case "switch":
                guard arguments.count == 1 else { throw fail("switch NAME") }
                commands.append(.switchProfile(arguments[0]))
            case "deadline":
                guard arguments.isEmpty else { throw fail("deadline takes no arguments") }
                commands.append(.reportDeadline)
            default:
                throw fail("unknown command \(verb)")
            }
        }
        return Step(line: number, time: time, commands: commands)
    }

    // MARK: Values

    private static func options<S: Sequence<String>>(_ words: S, number: Int) throws -> [(String, String)] {
        try words.map { word in
            let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw TimelineError(line: number, message: "expected key=value, got \(word)") }
            return (parts[0], parts[1])
        }
    }

    static func span(_ text: String, number: Int) throws -> TimeSpan {
        if text.hasSuffix("ms"), let value = Double(text.dropLast(2)) { return .seconds(value / 1000) }
        if text.hasSuffix("s"), let value = Double(text.dropLast()) { return .seconds(value) }
        throw TimelineError(line: number, message: "bad duration \(text)")
    }

    static func number(_ text: String, number: Int) throws -> Double {
        guard let value = Double(text) else { throw TimelineError(line: number, message: "bad number \(text)") }
        return value
    }

    static func chord(_ text: String, number: Int) throws -> DaydreamButtons {
        guard let buttons = Chord.buttons(named: text) else { throw TimelineError(line: number, message: "bad chord \(text)") }
        return buttons
    }

    static func absolute(_ text: String, number: Int) throws -> UInt16 {
        guard let code = EventCodeNames.resolve(text, types: [EventType.abs])?.code else { throw TimelineError(line: number, message: "unknown axis \(text)") }
        return code
    }

    static func action(_ text: String, number: Int) throws -> Action {
        if let special = Action(specialName: text) { return special }
        var codes: [UInt16] = []
        for name in text.split(separator: "+").map(String.init) {
            guard let code = EventCodeNames.resolve(name, types: [EventType.key])?.code else { throw TimelineError(line: number, message: "unknown code \(name)") }
            codes.append(code)
        }
        return .keys(codes)
    }
}
