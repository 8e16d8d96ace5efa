import Mapping

/// The devices `VirtualDeviceSet` would create, with a file descriptor (a pipe) in place of the
/// kernel: each event is checked against the same device layouts and each device's frame goes
/// out as raw `struct input_event`s with one `write(2)`, exactly the work the daemon does for
/// uinput, minus uinput itself.
///
/// For measuring the daemon where there is no `/dev/uinput` (`run --write-events`): unlike
/// `run --print`, it formats no text. The frames of all devices share the descriptor.
public final class PipeDeviceSet: OutputSink {
    /// The devices' frame writers, indexed by `OutputDeviceKind.rawValue`.
    private let devices: [DeviceFrameWriter?]
    private let names: [String?]

    /// One device per kind `capabilities` has, as `VirtualDeviceSet` makes them, writing to
    /// `fileDescriptor` (not owned).
    public init(
        capabilities: Capabilities, gamepadIdentity: GamepadIdentity = .default, fileDescriptor: Int32
    ) throws(VirtualDeviceError) {
        var made: [DeviceFrameWriter?] = Array(repeating: nil, count: OutputDeviceKind.allCases.count)
        var names: [String?] = Array(repeating: nil, count: OutputDeviceKind.allCases.count)
        for kind in capabilities.deviceKinds {
            guard let codes = capabilities[kind] else { continue }
            let description = try DeviceLayout.description(for: kind, capabilities: codes, gamepadIdentity: gamepadIdentity)
            made[Int(kind.rawValue)] = DeviceFrameWriter(description, fileDescriptor: fileDescriptor)
            names[Int(kind.rawValue)] = description.identity.name
        }
        devices = made
        self.names = names
    }

    /// One line per device for the log: kind and name.
    public var summary: [String] {
        OutputDeviceKind.allCases.compactMap { kind in
            names[Int(kind.rawValue)].map { "\(kind): \"\($0)\" as raw input_event frames on a file descriptor" }
        }
    }

    public func send(_ events: [OutputEvent]) throws(VirtualDeviceError) {
        var firstError: VirtualDeviceError?
        for event in events {
            do throws(VirtualDeviceError) {
                guard let device = devices[Int(event.device.rawValue)] else { throw .noSuchDevice(event.device.description) }
                try device.send(type: event.type, code: event.code, value: event.value)
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        if let firstError { throw firstError }
    }

    public func releaseAll() throws(VirtualDeviceError) {
        var firstError: VirtualDeviceError?
        for device in devices {
            do throws(VirtualDeviceError) {
                try device?.releaseAll()
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        if let firstError { throw firstError }
    }
}
