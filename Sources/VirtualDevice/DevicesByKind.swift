import Mapping

/// One output device's frames: what `DevicesByKind` hands each event to.
protocol FrameSink: AnyObject {
    /// Buffers one event of the current frame; `SYN_REPORT` ends the frame and writes it.
    func send(type: UInt16, code: UInt16, value: Int32) throws(VirtualDeviceError)
    /// Drops a partly buffered frame, then releases everything held, in one frame.
    func releaseAll() throws(VirtualDeviceError)
}

extension UInputDevice: FrameSink {}
extension DeviceFrameWriter: FrameSink {}

/// One device per kind the capabilities have, laid out by `DeviceLayout`, with each event
/// routed to the device it names: what `VirtualDeviceSet` (uinput) and `PipeDeviceSet`
/// (a file descriptor) share.
struct DevicesByKind<Device: FrameSink> {
    /// The devices, indexed by `OutputDeviceKind.rawValue`.
    private let devices: [Device?]

    /// Makes one device per kind `capabilities` has with `make`. If one fails, those already
    /// made are dropped (a `UInputDevice` is destroyed then) and the error is thrown.
    init(
        capabilities: Capabilities, gamepadIdentity: GamepadIdentity,
        make: (DeviceDescription) throws(VirtualDeviceError) -> Device
    ) throws(VirtualDeviceError) {
        var made: [Device?] = Array(repeating: nil, count: OutputDeviceKind.allCases.count)
        for kind in capabilities.deviceKinds {
            guard let codes = capabilities[kind] else { continue }
            let description = try DeviceLayout.description(for: kind, capabilities: codes, gamepadIdentity: gamepadIdentity)
            made[Int(kind.rawValue)] = try make(description)
        }
        devices = made
    }

    /// The device of `kind`, if it was made.
    subscript(kind: OutputDeviceKind) -> Device? {
        devices[Int(kind.rawValue)]
    }

    /// The kinds made, in `OutputDeviceKind` order.
    var kinds: [OutputDeviceKind] {
        OutputDeviceKind.allCases.filter { self[$0] != nil }
    }

    /// `OutputSink.send(_:)`: every event is tried; the first error is thrown after the rest.
    func send(_ events: [OutputEvent]) throws(VirtualDeviceError) {
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

    /// `OutputSink.releaseAll()`: every device is released; the first error is thrown after the rest.
    func releaseAll() throws(VirtualDeviceError) {
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
