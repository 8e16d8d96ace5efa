import Mapping

/// The uinput devices of one controller: a gamepad, a mouse and a keyboard,
/// each created only when the capabilities need it, all destroyed together.
///
/// Create it once at start and keep it across Bluetooth drops: games lose a
/// pad that disappears.
public final class VirtualDeviceSet: OutputSink {
    /// The devices, indexed by `OutputDeviceKind.rawValue`.
    private let devices: [UInputDevice?]

    /// Creates one device per kind `capabilities` has (see `DeviceLayout`).
    /// If one fails, those already made are destroyed and the error is thrown.
    public init(capabilities: Capabilities, gamepadIdentity: GamepadIdentity = .default) throws(VirtualDeviceError) {
        var made: [UInputDevice?] = Array(repeating: nil, count: OutputDeviceKind.allCases.count)
        for kind in capabilities.deviceKinds {
            guard let codes = capabilities[kind] else { continue }
            let description = try DeviceLayout.description(for: kind, capabilities: codes, gamepadIdentity: gamepadIdentity)
            made[Int(kind.rawValue)] = try UInputDevice(description)
        }
        devices = made
    }

    /// The device of `kind`, if it was created.
    public subscript(kind: OutputDeviceKind) -> UInputDevice? {
        devices[Int(kind.rawValue)]
    }

    /// The kinds created, in `OutputDeviceKind` order.
    public var kinds: [OutputDeviceKind] {
        OutputDeviceKind.allCases.filter { self[$0] != nil }
    }

    /// One line per device for the log: kind, name and event node.
    public var summary: [String] {
        kinds.compactMap { kind in
            self[kind].map { "\(kind): \"\($0.name)\" at \($0.devnode ?? $0.syspath ?? "an unknown node")" }
        }
    }

    public func send(_ events: [OutputEvent]) throws(VirtualDeviceError) {
        var firstError: VirtualDeviceError?
        for event in events {
            do throws(VirtualDeviceError) {
                guard let device = self[event.device] else { throw .noSuchDevice(event.device.description) }
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
