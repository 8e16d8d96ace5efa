import EventVocabulary

/// One output device's frames: what `DevicesByKind` hands each event to.
protocol FrameSink: AnyObject {
    /// Buffers one event of the current frame; `SYN_REPORT` ends the frame and writes it.
    func send(type: UInt16, code: UInt16, value: Int32) throws(VirtualDeviceError)
    /// Drops a partly buffered frame, then releases everything held, in one frame.
    func releaseAll() throws(VirtualDeviceError)
    /// The device's name and where its frames go, for the log: `"Daydream Controller Mouse" at /dev/input/event7`.
    var placement: String { get }
    /// The device's state after the frames written so far.
    var state: DeviceState { get }
}

extension UInputDevice: FrameSink {
    var placement: String { "\"\(name)\" at \(devnode ?? syspath ?? "an unknown node")" }
}

extension DeviceFrameWriter: FrameSink {
    var placement: String { "\"\(deviceName)\" as raw input_event frames on a file descriptor" }
}

/// One device per kind the capabilities have, laid out by `DeviceLayout`, with each event
/// routed to the device it names: what `VirtualDeviceSet` keeps for each place its frames may go
/// (uinput, a file descriptor, memory).
struct DevicesByKind<Device: FrameSink> {
    /// The devices, indexed by `OutputDeviceKind.rawValue`.
    private let devices: [Device?]
    /// The same devices without a reference count of their own (`devices` keeps them alive), for
    /// the per-event path: a device read from `devices` is retained and released around each call.
    private let unretained: [Unmanaged<Device>?]

    /// Makes one device per kind `capabilities` has with `make`. If one fails, those already
    /// made are dropped (a `UInputDevice` is destroyed then) and the error is thrown.
    init(
        capabilities: Capabilities, gamepadIdentity: GamepadIdentity,
        make: (OutputDeviceKind, DeviceDescription) throws(VirtualDeviceError) -> Device
    ) throws(VirtualDeviceError) {
        var made: [Device?] = Array(repeating: nil, count: OutputDeviceKind.count)
        for kind in capabilities.deviceKinds {
            guard let codes = capabilities[kind] else { continue }
            let description = try DeviceLayout.description(for: kind, capabilities: codes, gamepadIdentity: gamepadIdentity)
            made[Int(kind.rawValue)] = try make(kind, description)
        }
        devices = made
        var borrowed: [Unmanaged<Device>?] = Array(repeating: nil, count: made.count)
        for (index, device) in made.enumerated() {
            if let device { borrowed[index] = Unmanaged.passUnretained(device) }
        }
        unretained = borrowed
    }

    /// The device of `kind`, if it was made.
    subscript(kind: OutputDeviceKind) -> Device? {
        devices[Int(kind.rawValue)]
    }

    /// The kinds made, in `OutputDeviceKind` order.
    var kinds: [OutputDeviceKind] {
        OutputDeviceKind.allCases.filter { self[$0] != nil }
    }

    /// `OutputSink.summary`: one line per device, `kind: placement`.
    var summary: [String] {
        kinds.compactMap { kind in self[kind].map { "\(kind): \($0.placement)" } }
    }

    /// `OutputSink.send(_:at:)`: every event is tried; the first error is thrown after the rest.
    func send(_ events: UnsafeBufferPointer<OutputEvent>) throws(VirtualDeviceError) {
        // Until an event fails, no error to keep: the loop every packet runs carries none.
        var index = events.startIndex
        let firstError: VirtualDeviceError
        do throws(VirtualDeviceError) {
            while index < events.endIndex {
                try send(events[index])
                index += 1
            }
            return
        } catch {
            firstError = error
        }
        index += 1
        while index < events.endIndex {
            try? send(events[index])
            index += 1
        }
        throw firstError
    }

    private func send(_ event: OutputEvent) throws(VirtualDeviceError) {
        guard let device = unretained[Int(event.device.rawValue)] else { throw .noSuchDevice(event.device.description) }
        // Borrowed for the call: `devices` holds the device for as long as `self` lives.
        let failure = device._withUnsafeGuaranteedRef { device -> VirtualDeviceError? in
            do throws(VirtualDeviceError) {
                try device.send(type: event.type, code: event.code, value: event.value)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// `OutputSink.releaseAll(at:)`: every device is released; the first error is thrown after the rest.
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
