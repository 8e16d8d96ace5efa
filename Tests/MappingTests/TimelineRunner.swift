import DaydreamProtocol
import EventVocabulary
import Mapping
import Timebase

/// Runs a timeline through a `MappingEngine` and writes the output as timeline lines.
///
/// Besides the events, it writes a `!!` line for each problem: an event the devices
/// would refuse (a code outside the configuration's capabilities, an axis value outside
/// its range) and what `DeviceModel` finds (a key pressed twice, a frame left open...).
struct TimelineRunner: ~Copyable {
    private var engine: MappingEngine
    private let capabilities: Capabilities
    private var buffer = OutputBuffer()
    private var input = ControllerInput()
    private var model = DeviceModel()
    private(set) var lines: [String] = []

    /// A runner for `timeline`, checking events against `capabilities` (the devices the
    /// configuration creates, unless a test gives others).
    init(_ timeline: Timeline, capabilities: Capabilities? = nil) {
        engine = MappingEngine(configuration: timeline.configuration)
        self.capabilities = capabilities ?? timeline.configuration.capabilities
    }

    static func run(_ timeline: Timeline, capabilities: Capabilities? = nil) -> [String] {
        var runner = TimelineRunner(timeline, capabilities: capabilities)
        for step in timeline.steps { runner.perform(step) }
        return runner.lines
    }

    private mutating func perform(_ step: Timeline.Step) {
        fireDeadlines(upTo: step.time)
        var inputChanged = false
        for command in step.commands {
            switch command {
            case .press(let buttons):
                input.buttons.formUnion(buttons)
                inputChanged = true
            case .release(let buttons):
                input.buttons.subtract(buttons)
                inputChanged = true
            case .touch(let point):
                input.touch = point
                inputChanged = true
            case .lift:
                input.touch = nil
                inputChanged = true
            case .gyro(let rate):
                input.rotationRate = rate
                inputChanged = true
            case .accel(let g):
                let metres = UnitConversion.standardGravity
                input.acceleration = Vector3(x: g.x * metres, y: g.y * metres, z: g.z * metres)
                inputChanged = true
            case .stamp(let stamp):
                input.controllerTime = stamp.map { ControllerStamp(milliseconds: $0) }
                inputChanged = true
            case .orient(let degrees):
                let radians = Double.pi / 180
                input.orientation = Quaternion(rotationVector: Vector3(x: degrees.x * radians, y: degrees.y * radians, z: degrees.z * radians))
                inputChanged = true
            default:
                if inputChanged { update(at: step.time) }
                inputChanged = false
                other(command, at: step.time)
            }
        }
        if inputChanged { update(at: step.time) }
    }

    private mutating func update(at time: MonotonicTime) {
        engine.update(input, at: time, into: &buffer)
        record(at: time)
    }

    private mutating func other(_ command: Timeline.Command, at time: MonotonicTime) {
        switch command {
        case .advance:
            engine.advance(to: time, into: &buffer)
        case .releaseAll:
            engine.releaseAll(into: &buffer)
            record(at: time, afterReleaseAll: true)
        case .switchProfile(let name):
            let switched = engine.switchProfile(to: name, at: time, into: &buffer)
            // The release comes first, in frames of its own: check it on its own.
            record(at: time, afterReleaseAll: switched)
            if !switched {
                lines.append("\(Self.format(time)) no profile \(name)")
            }
        case .reportDeadline:
            lines.append("\(Self.format(time)) deadline \(engine.nextDeadline.map(Self.format) ?? "none")")
        default:
            break
        }
        record(at: time)
    }

    /// Fires timers the way the daemon does: at each deadline, until none is due by `time`.
    private mutating func fireDeadlines(upTo time: MonotonicTime) {
        while let deadline = engine.nextDeadline, deadline <= time {
            engine.advance(to: deadline, into: &buffer)
            record(at: deadline)
        }
    }

    private mutating func record(at time: MonotonicTime, afterReleaseAll: Bool = false) {
        for problem in model.check(buffer.events, afterReleaseAll: afterReleaseAll) {
            lines.append("\(Self.format(time)) !! \(problem)")
        }
        for event in buffer.events {
            if let problem = capabilityProblem(event) { lines.append("\(Self.format(time)) !! \(problem)") }
            lines.append("\(Self.format(time)) \(event.device) \(EventCodeNames.name(type: event.type, code: event.code))"
                + (event.isSynReport ? "" : " \(event.value)"))
        }
        buffer.removeAll()
        for notice in engine.takeNotices() {
            switch notice {
            case .profileChanged(let from, let to):
                lines.append("\(Self.format(time)) notice profile \(from) -> \(to)")
            case .recentered:
                lines.append("\(Self.format(time)) notice recentered")
            case .gyroCalibrationStarted:
                lines.append("\(Self.format(time)) notice calibrating")
            case .gyroCalibrationProgress(let fraction):
                lines.append("\(Self.format(time)) notice calibrating \(Int((fraction * 100).rounded()))%")
            case .gyroCalibrated(let bias):
                let degrees = [bias.x, bias.y, bias.z].map { String(Double(Int(($0 * 18000 / Double.pi).rounded())) / 100) }
                lines.append("\(Self.format(time)) notice calibrated \(degrees.joined(separator: " ")) deg/s")
            case .gyroCalibrationFailed:
                lines.append("\(Self.format(time)) notice calibration failed")
            case .gyroBiasRefined(let bias):
                let degrees = [bias.x, bias.y, bias.z].map { String(Double(Int(($0 * 18000 / Double.pi).rounded())) / 100) }
                lines.append("\(Self.format(time)) notice bias refined \(degrees.joined(separator: " ")) deg/s")
            }
        }
    }

    /// Why the device of `event` could not write it, or nil when it can.
    private func capabilityProblem(_ event: OutputEvent) -> String? {
        guard !event.isSynReport else { return nil }
        let name = EventCodeNames.name(type: event.type, code: event.code)
        guard let device = capabilities[event.device] else { return "\(name) on a \(event.device) the configuration does not create" }
        switch event.type {
        case EventType.key where device.hasKey(event.code), EventType.rel where device.hasRelative(event.code),
             EventType.msc where device.hasMisc(event.code):
            return nil
        case EventType.abs:
            guard let info = device.absInfo(event.code) else { break }
            return (info.minimum...info.maximum).contains(event.value) || event.value == info.value
                ? nil : "\(name) \(event.value) outside the \(event.device)'s \(info.minimum)...\(info.maximum)"
        default:
            break
        }
        return "\(name) is not in the \(event.device)'s capabilities"
    }

    static func format(_ time: MonotonicTime) -> String {
        let nanoseconds = time.nanoseconds
        if nanoseconds % 1_000_000 == 0 { return "\(nanoseconds / 1_000_000)ms" }
        return "\(Double(nanoseconds) / 1_000_000)ms"
    }
}

/// A readable line diff (longest common subsequence): "-" expected but missing, "+" produced but not expected.
func lineDiff(expected: [String], actual: [String]) -> String {
    let n = expected.count
    let m = actual.count
    var table = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
    for i in stride(from: n - 1, through: 0, by: -1) {
        for j in stride(from: m - 1, through: 0, by: -1) {
            table[i][j] = expected[i] == actual[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
        }
    }
    var result: [String] = []
    var i = 0
    var j = 0
    while i < n || j < m {
        if i < n, j < m, expected[i] == actual[j] {
            result.append("  => \(expected[i])")
            i += 1
            j += 1
        } else if j < m, i == n || table[i][j + 1] >= table[i + 1][j] {
            result.append("+ => \(actual[j])")
            j += 1
        } else {
            result.append("- => \(expected[i])")
            i += 1
        }
    }
    return result.joined(separator: "\n")
}
