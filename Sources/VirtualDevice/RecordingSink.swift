import Mapping

/// An `OutputSink` that keeps every event in memory, checked exactly as the
/// real devices would check them: same layouts, same declared codes, same
/// release logic. For tests and `replay --print`.
public final class RecordingSink: OutputSink {
    /// Every event accepted, in order, `SYN_REPORT`s included.
    public private(set) var events: [OutputEvent] = []
    /// The description each device would be created with, by kind.
    public let descriptions: [OutputDeviceKind: DeviceDescription]
    private var states: [DeviceState?]

    /// A sink with the devices `VirtualDeviceSet` would create for these
    /// capabilities (descriptions built and checked the same way).
    public init(capabilities: Capabilities, gamepadIdentity: GamepadIdentity = .default) throws(VirtualDeviceError) {
        var descriptions: [OutputDeviceKind: DeviceDescription] = [:]
        var states: [DeviceState?] = Array(repeating: nil, count: OutputDeviceKind.allCases.count)
        for kind in capabilities.deviceKinds {
            guard let codes = capabilities[kind] else { continue }
            let description = try DeviceLayout.description(for: kind, capabilities: codes, gamepadIdentity: gamepadIdentity)
            descriptions[kind] = description
            states[Int(kind.rawValue)] = DeviceState(capabilities: description.capabilities)
        }
        self.descriptions = descriptions
        self.states = states
    }

    /// The kinds this sink has, in `OutputDeviceKind` order.
    public var kinds: [OutputDeviceKind] {
        OutputDeviceKind.allCases.filter { descriptions[$0] != nil }
    }

    /// The state of the device of `kind` after the events so far.
    public func state(_ kind: OutputDeviceKind) -> DeviceState? {
        states[Int(kind.rawValue)]
    }

    /// Forgets the recorded events (device states are kept).
    public func removeAll() {
        events.removeAll(keepingCapacity: true)
    }

    /// Every event as a line: `gamepad EV_KEY BTN_SOUTH 1`.
    public var lines: [String] {
        events.map(EventCodeNames.line)
    }

    public func send(_ events: [OutputEvent]) throws(VirtualDeviceError) {
        var firstError: VirtualDeviceError?
        for event in events {
            let index = Int(event.device.rawValue)
            guard let state = states[index] else {
                if firstError == nil { firstError = .noSuchDevice(event.device.description) }
                continue
            }
            guard state.isDeclared(type: event.type, code: event.code) else {
                if firstError == nil {
                    let name = descriptions[event.device]?.identity.name ?? event.device.description
                    firstError = .undeclaredCode(device: name, code: EventCodeNames.name(type: event.type, code: event.code))
                }
                continue
            }
            states[index]?.record(type: event.type, code: event.code, value: event.value)
            self.events.append(event)
        }
        if let firstError { throw firstError }
    }

    public func releaseAll() throws(VirtualDeviceError) {
        for kind in kinds {
            let index = Int(kind.rawValue)
            guard let state = states[index], !state.isAtRest else { continue }
            var releases: [OutputEvent] = []
            state.forEachRelease { type, code, value in
                releases.append(OutputEvent(device: kind, type: type, code: code, value: value))
            }
            releases.append(OutputEvent(device: kind, type: 0, code: 0, value: 0))
            try send(releases)
        }
    }
}
