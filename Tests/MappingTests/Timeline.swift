import BridgeConfig
import DaydreamProtocol
import Foundation
import Mapping
import Timebase

/// A golden timeline: a configuration, input steps with virtual time, and the expected output.
///
/// The configuration is the bridge's own TOML, decoded by `BridgeConfig` as `check-config`
/// decodes a config file; it is everything before the first step (a line that starts with
/// a time), and `[bridge] profile` is where the engine starts. Then:
///
/// ```
/// 0ms    press home; touch 0.5 0.25  (one snapshot; also: release, lift, gyro X Y Z rad/s, accel X Y Z g, orient X Y Z degrees,
///                                    stamp MS: the controller's clock, 0...511, from then on; stamp none: unknown)
/// 1500ms advance                     (only timers)
/// 1500ms release-all | switch NAME | deadline   (deadline prints "=> TIME deadline 2500ms" or "none")
/// => 200ms gamepad BTN_MODE 1        (expected: time, device, code name, value)
/// => 200ms gamepad SYN_REPORT
/// => 200ms notice profile gamepad -> mouse
/// # comment
/// ```
/// Before each step the runner fires every deadline up to the step's time at the deadline, as the daemon's timer would.
struct Timeline {
    var configuration = MappingConfiguration(profiles: [])
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
        case accel(Vector3)
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
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let firstStep = lines.firstIndex { $0.first?.isNumber == true } ?? lines.endIndex
        configuration = try Self.configuration(lines[..<firstStep].joined(separator: "\n"))
        for (offset, rawLine) in lines.enumerated().dropFirst(firstStep) {
            let number = offset + 1
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first
                .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            guard !line.isEmpty else { continue }
            if line.hasPrefix("=>") {
                expected.append(Self.normalized(String(line.dropFirst(2))))
            } else if let first = line.first, first.isNumber {
                try steps.append(Self.step(line, number: number))
            } else {
                throw TimelineError(line: number, message: "expected a step (TIME COMMAND) or an expectation (=> ...)")
            }
        }
    }

    static func normalized(_ text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// The configuration part, decoded as the bridge decodes a config file (its lines are the file's).
    private static func configuration(_ toml: String) throws -> MappingConfiguration {
        do {
            return try ConfigDecoder.decode(toml)
        } catch {
            let first = error.diagnostics.first?.position.line ?? 1
            throw TimelineError(line: first, message: error.diagnostics.map(\.description).joined(separator: "\n"))
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
            case "accel": commands.append(.accel(try vector()))
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

    static func span(_ text: String, number: Int) throws -> TimeSpan {
        if text.hasSuffix("ms"), let value = Double(text.dropLast(2)) { return .seconds(value / 1000) }
        if text.hasSuffix("s"), let value = Double(text.dropLast()) { return .seconds(value) }
        throw TimelineError(line: number, message: "bad duration \(text)")
    }

    static func number(_ text: String, number: Int) throws -> Double {
        guard let value = Double(text) else { throw TimelineError(line: number, message: "bad number \(text)") }
        return value
    }
}
