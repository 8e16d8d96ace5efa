/// What the virtual devices currently show: which keys are down (with a count, so two bindings
/// on one code never release each other's press) and where each absolute axis is.
///
/// Every change goes into the buffer; unchanged values are not repeated. Fixed-size tables, no allocation after init.
struct OutputState: Sendable {
    /// Presses per `EV_KEY` code.
    private var keyCounts: [UInt8]
    /// Current value per `EV_ABS` code.
    private var absValues: [Int32]
    /// Rest value per `EV_ABS` code (from the capabilities).
    private var absRest: [Int32]
    /// Pending relative motion, summed within a frame and written by `flushRelative`.
    private var relative: [Int32]

    init(capabilities: Capabilities) {
        keyCounts = Array(repeating: 0, count: Int(EventCode.keyMax) + 1)
        absValues = Array(repeating: 0, count: Int(EventCode.absMax) + 1)
        absRest = absValues
        relative = Array(repeating: 0, count: Int(EventCode.relMax) + 1)
        for axis in capabilities.gamepad?.absoluteAxes ?? [] {
            absRest[Int(axis.code)] = axis.info.value
            absValues[Int(axis.code)] = axis.info.value
        }
    }

    /// True when any key is down or any axis is away from rest.
    var isIdle: Bool {
        !keyCounts.contains(where: { $0 != 0 }) && absValues == absRest
    }

    /// True when `code` is down.
    func isDown(_ code: UInt16) -> Bool {
        Int(code) < keyCounts.count && keyCounts[Int(code)] > 0
    }

    /// Presses `code` (emitting only the first press).
    mutating func press(_ code: UInt16, into output: inout OutputBuffer) {
        guard Int(code) < keyCounts.count, let device = OutputDeviceKind.routeKey(code) else { return }
        if keyCounts[Int(code)] == 0 {
            output.append(device, type: EventType.key, code: code, value: 1)
        }
        keyCounts[Int(code)] &+= 1
    }

    /// Releases one press of `code` (emitting only the last release).
    mutating func release(_ code: UInt16, into output: inout OutputBuffer) {
        guard Int(code) < keyCounts.count, keyCounts[Int(code)] > 0,
              let device = OutputDeviceKind.routeKey(code) else { return }
        keyCounts[Int(code)] -= 1
        if keyCounts[Int(code)] == 0 {
            output.append(device, type: EventType.key, code: code, value: 0)
        }
    }

    /// Moves an absolute axis (emitting only a change).
    mutating func setAbsolute(_ code: UInt16, _ value: Int32, into output: inout OutputBuffer) {
        guard Int(code) < absValues.count, absValues[Int(code)] != value else { return }
        absValues[Int(code)] = value
        output.append(.gamepad, type: EventType.abs, code: code, value: value)
    }

    /// Returns an absolute axis to its rest value.
    mutating func centreAbsolute(_ code: UInt16, into output: inout OutputBuffer) {
        guard Int(code) < absRest.count else { return }
        setAbsolute(code, absRest[Int(code)], into: &output)
    }

    /// Adds relative motion to the current frame.
    mutating func addRelative(_ code: UInt16, _ value: Int32) {
        guard Int(code) < relative.count else { return }
        relative[Int(code)] &+= value
    }

    /// Writes the summed relative motion (non-zero codes, in code order) and clears it.
    mutating func flushRelative(into output: inout OutputBuffer) {
        for index in relative.indices where relative[index] != 0 {
            output.append(.mouse, type: EventType.rel, code: UInt16(index), value: relative[index])
            relative[index] = 0
        }
    }

    /// Releases every key that is down (in code order) and centres every axis; no `SYN_REPORT`.
    mutating func releaseEverything(into output: inout OutputBuffer) {
        for index in keyCounts.indices where keyCounts[index] != 0 {
            keyCounts[index] = 1
            release(UInt16(index), into: &output)
        }
        for index in absValues.indices {
            centreAbsolute(UInt16(index), into: &output)
        }
        for index in relative.indices { relative[index] = 0 }
    }
}
