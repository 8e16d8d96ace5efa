import Foundation
import Mapping
import VirtualDevice
#if canImport(Glibc)
import Glibc
#endif

/// Where the fd-to-write benchmark writes: real uinput devices when `/dev/uinput`
/// can be opened, otherwise a pipe written through the same `InputEventWriter`
/// the uinput devices use (one `write(2)` per device frame).
@MainActor
final class BenchSink {
    /// "uinput" or "pipe".
    let kind: String
    private let devices: VirtualDeviceSet?
    private let writers: [InputEventWriter]

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

    /// Sends the events; true when anything was written.
    func send(_ events: [OutputEvent]) -> Bool {
        guard !events.isEmpty else { return false }
        if let devices {
            try? devices.send(events)
            return true
        }
        for event in events {
            let writer = writers[Int(event.device.rawValue)]
            if event.isSynReport {
                try? writer.endFrame()
            } else {
                try? writer.append(type: event.type, code: event.code, value: event.value)
            }
        }
        return true
    }
}
