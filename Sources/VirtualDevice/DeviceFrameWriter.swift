import CEvdev
import Mapping

/// One device's side of the output, whatever the file descriptor: refuses codes the device does
/// not declare (the kernel would drop them silently), keeps the device's `DeviceState`, and
/// writes each frame with one `write(2)` through an `InputEventWriter`.
///
/// `UInputDevice` writes to its uinput fd through one; `PipeDeviceSet` writes the same frames to a pipe.
final class DeviceFrameWriter {
    /// The declared codes and the state as last written. Read and recorded for every event;
    /// unchecked, that skips the run-time exclusivity checks, and no two accesses can overlap
    /// (nothing this class calls while it holds the state can reach back into it).
    @exclusivity(unchecked) private(set) var state: DeviceState
    private let writer: InputEventWriter
    /// The device's name, as uinput would be given it.
    let deviceName: String

    /// A writer for the device `description` describes, writing to `fileDescriptor` (not owned).
    init(_ description: DeviceDescription, fileDescriptor: Int32) {
        state = DeviceState(capabilities: description.capabilities)
        deviceName = description.identity.name
        // Every code changing at once plus SYN_REPORT fits in one write.
        let capabilities = description.capabilities
        let codeCount = capabilities.keys.count + capabilities.relativeAxes.count + capabilities.absoluteAxes.count
        writer = InputEventWriter(fileDescriptor: fileDescriptor, capacity: codeCount + 1, deviceName: deviceName)
    }

    /// Buffers one event of the current frame; `SYN_REPORT` ends the frame and writes it.
    /// An undeclared code is refused and nothing is buffered.
    func send(type: UInt16, code: UInt16, value: Int32) throws(VirtualDeviceError) {
        if type == EV_SYN {
            if code == SYN_REPORT { try writer.endFrame() }
            return
        }
        guard state.isDeclared(type: type, code: code) else {
            throw .undeclaredCode(device: deviceName, code: EventCodeNames.name(type: type, code: code))
        }
        state.record(type: type, code: code, value: value)
        try writer.append(type: type, code: code, value: value)
    }

    /// Ends the current frame with `SYN_REPORT` and writes it.
    func endFrame() throws(VirtualDeviceError) {
        try writer.endFrame()
    }

    /// Drops a partly buffered frame, then releases every key that is down and returns every
    /// axis to rest, in one frame. Writes nothing when all is at rest.
    func releaseAll() throws(VirtualDeviceError) {
        writer.discard()
        guard !state.isAtRest else { return }
        var releases = state
        try state.forEachRelease { (type, code, value) throws(VirtualDeviceError) in
            releases.record(type: type, code: code, value: value)
            try writer.append(type: type, code: code, value: value)
        }
        state = releases
        try writer.endFrame()
    }
}
