import EventVocabulary
import Mapping
import Timebase
import VirtualDevice
#if canImport(Glibc)
import Glibc
#endif

/// Where the fd-to-write benchmark's events go: real uinput devices when `/dev/uinput`
/// can be written, otherwise a pipe written through the same `InputEventWriter` the
/// uinput devices use (one `write(2)` per device frame). Notes when the last write ended.
final class BenchDeviceSink: OutputSink {
    /// "uinput" or "pipe".
    let kind: String
    private let devices: VirtualDeviceSet?
    private let writers: [InputEventWriter]
    /// Calls to `send` that wrote something.
    private(set) var writes = 0
    /// `CLOCK_MONOTONIC` nanoseconds right after the last write returned.
    private(set) var lastWriteNanoseconds: Int64 = 0
    var label = ""

    /// Real devices for `capabilities` if possible, else writers on `pipe`.
    init(capabilities: Capabilities, pipe: Int32) {
        if access("/dev/uinput", W_OK) == 0, let set = try? VirtualDeviceSet(capabilities: capabilities) {
            kind = "uinput"
            devices = set
            writers = []
        } else {
            kind = "pipe"
            devices = nil
            writers = OutputDeviceKind.allCases.map {
                InputEventWriter(fileDescriptor: pipe, capacity: 64, deviceName: "\($0)")
            }
        }
    }

    var summary: [String] { devices?.summary ?? ["bench: frames on a pipe"] }

    func send(_ events: UnsafeBufferPointer<OutputEvent>, at time: MonotonicTime) throws(VirtualDeviceError) {
        guard !events.isEmpty else { return }
        defer {
            lastWriteNanoseconds = monotonicNanoseconds()
            writes += 1
        }
        if let devices {
            try devices.send(events, at: time)
            return
        }
        for event in events {
            let writer = writers[Int(event.device.rawValue)]
            if event.isSynReport {
                try writer.endFrame()
            } else {
                try writer.append(type: event.type, code: event.code, value: event.value)
            }
        }
    }

    func releaseAll(at time: MonotonicTime) throws(VirtualDeviceError) {
        try devices?.releaseAll()
    }
}
