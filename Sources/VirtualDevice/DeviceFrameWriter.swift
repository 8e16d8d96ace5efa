import EventVocabulary

/// One device's side of the output, wherever its frames go: refuses codes the device does not
/// declare (the kernel would drop them silently), keeps the device's `DeviceState`, and writes
/// each frame with one `write(2)` through an `InputEventWriter`.
///
/// A `VirtualDeviceSet` routes each event to its device's writer: a `UInputDevice`'s (on its
/// uinput fd), one on a file descriptor, or one into memory.
final class DeviceFrameWriter {
    /// The state as last written (a frame counts once its write succeeded, not before) and the
    /// state the frames asked for, including the one being buffered: the second is ahead of the
    /// first while a frame is buffered, and after a failed write until a later frame carries the
    /// difference. Read and recorded for every event; unchecked, that skips the run-time
    /// exclusivity checks, and no two accesses can overlap (nothing this class calls while it
    /// holds the states can reach back into it).
    @exclusivity(unchecked) private var states: FrameStates
    /// The state as last written.
    var state: DeviceState { states.written }
    /// Whether a write failed, so the device may be behind `states.requested`: the next frame
    /// starts with the difference (a failed release is written again then).
    private var behind = false
    /// The codes the device declares, apart from the states: checked for every event, and reading
    /// them from a state would copy the whole state (its tables retained and released).
    private let declared: DeclaredCodes
    private let writer: InputEventWriter
    /// The device's name, as uinput would be given it.
    let deviceName: String

    /// A writer for the device `description` describes, writing to `fileDescriptor` (not owned).
    convenience init(_ description: DeviceDescription, fileDescriptor: Int32) {
        self.init(description) { capacity, name in InputEventWriter(fileDescriptor: fileDescriptor, capacity: capacity, deviceName: name) }
    }

    /// A writer for the device `description` describes, appending its frames to `log` as
    /// events of the device of `kind`.
    convenience init(_ description: DeviceDescription, kind: OutputDeviceKind, log: EventLog) {
        self.init(description) { capacity, name in InputEventWriter(log: log, kind: kind, capacity: capacity, deviceName: name) }
    }

    private init(_ description: DeviceDescription, makeWriter: (_ capacity: Int, _ deviceName: String) -> InputEventWriter) {
        let initial = DeviceState(capabilities: description.capabilities)
        states = FrameStates(initial)
        declared = initial.declared
        deviceName = description.identity.name
        // Every code changing at once plus SYN_REPORT fits in one write.
        let capabilities = description.capabilities
        let codeCount = capabilities.keys.count + capabilities.relativeAxes.count + capabilities.absoluteAxes.count
            + capabilities.miscCodes.count
        writer = makeWriter(codeCount + 1, deviceName)
    }

    /// Buffers one event of the current frame; `SYN_REPORT` ends the frame and writes it.
    /// An undeclared code is refused and nothing is buffered. After a failed write, the next
    /// frame first repeats what the device missed.
    func send(type: UInt16, code: UInt16, value: Int32) throws(VirtualDeviceError) {
        if type == EventType.syn {
            if code == EventCode.synReport { try endFrame() }
            return
        }
        guard declared.contains(type: type, code: code) else {
            throw .undeclaredCode(device: deviceName, code: EventCodeNames.name(type: type, code: code))
        }
        if behind && writer.count == 0 { try catchUp() }
        states.record(type: type, code: code, value: value)
        try writer.append(type: type, code: code, value: value)
    }

    /// Ends the current frame with `SYN_REPORT` and writes it; the state counts it once written.
    func endFrame() throws(VirtualDeviceError) {
        do {
            try writer.endFrame()
        } catch {
            writer.discard()
            behind = true
            throw error
        }
        states.commit()
        behind = false
    }

    /// Drops a partly buffered frame, then releases every key that may be down and returns every
    /// axis that may be away from rest (by what was written and what failed to be), in one frame.
    /// Writes nothing when all is at rest. A failed write is tried once more at once; if that fails
    /// too, the state still holds what is down, so the next frame and the next `releaseAll` write
    /// the release again.
    func releaseAll() throws(VirtualDeviceError) {
        writer.discard()
        var held = states.written
        held.includeUncertain(states.requested)
        var released = held
        held.forEachRelease { type, code, value in released.record(type: type, code: code, value: value) }
        states.replaceRequested(released)
        guard !held.isAtRest else {
            states.written = released
            behind = false
            return
        }
        do {
            try writeRelease(from: held)
        } catch {
            try writeRelease(from: held)
        }
    }

    private func writeRelease(from held: DeviceState) throws(VirtualDeviceError) {
        do {
            try held.forEachRelease { (type, code, value) throws(VirtualDeviceError) in
                try writer.append(type: type, code: code, value: value)
            }
        } catch {
            writer.discard()
            behind = true
            throw error
        }
        try endFrame()
    }

    /// Buffers what the device missed: the difference between what was written and what the frames asked for.
    private func catchUp() throws(VirtualDeviceError) {
        do {
            try states.written.forEachChange(to: states.requested) { (type, code, value) throws(VirtualDeviceError) in
                try writer.append(type: type, code: code, value: value)
            }
        } catch {
            writer.discard()
            throw error
        }
    }
}

/// What was written and what the frames asked for, in one stored property, so that a frame's
/// commit copies values from one to the other in place: reading either out of the class would
/// copy the whole state, and `written = requested` would share their tables until the next
/// change copied them (an allocation a frame). The commit copies only what was recorded since
/// the last one: a frame moves an axis or two.
private struct FrameStates {
    var written: DeviceState
    /// Set through `record` or `replaceRequested`, which note what changed.
    private(set) var requested: DeviceState
    /// The axes recorded in `requested` since the last commit, as bits of their codes.
    private var changedAxes: UInt64 = 0
    /// Whether a key was recorded in `requested` since the last commit.
    private var changedKeys = false

    /// Both states at `initial`: nothing to commit yet.
    init(_ initial: DeviceState) {
        written = initial
        requested = initial
    }

    /// Notes an event of the frame being buffered.
    mutating func record(type: UInt16, code: UInt16, value: Int32) {
        requested.record(type: type, code: code, value: value)
        if type == EventType.key {
            changedKeys = true
        } else if type == EventType.abs {
            changedAxes |= code < 64 ? 1 << UInt64(code) : ~0
        }
    }

    /// Replaces the state asked for as a whole; the next commit copies all of it.
    mutating func replaceRequested(_ state: DeviceState) {
        requested = state
        changedAxes = ~0
        changedKeys = true
    }

    /// The buffered frame was written: `written` takes `requested`'s values.
    mutating func commit() {
        written.takeValues(from: requested, axes: changedAxes, keys: changedKeys)
        changedAxes = 0
        changedKeys = false
    }
}
