import EventVocabulary

/// The events a recording `VirtualDeviceSet` accepted, shared by its devices, in order.
final class EventLog {
    var events: [OutputEvent] = []
}

/// One device of a recording `VirtualDeviceSet`: checks each event as the real device would (declared codes,
/// its `DeviceState`) and appends it to the sink's log instead of writing it.
final class RecordedDevice: FrameSink {
    let kind: OutputDeviceKind
    let description: DeviceDescription
    private(set) var state: DeviceState
    private let log: EventLog

    init(kind: OutputDeviceKind, description: DeviceDescription, log: EventLog) {
        self.kind = kind
        self.description = description
        state = DeviceState(capabilities: description.capabilities)
        self.log = log
    }

    var placement: String { "\"\(description.identity.name)\" in memory" }

    func send(type: UInt16, code: UInt16, value: Int32) throws(VirtualDeviceError) {
        guard state.isDeclared(type: type, code: code) else {
            throw .undeclaredCode(device: description.identity.name, code: EventCodeNames.name(type: type, code: code))
        }
        state.record(type: type, code: code, value: value)
        log.events.append(OutputEvent(device: kind, type: type, code: code, value: value))
    }

    /// Records the release of everything down and a `SYN_REPORT`; nothing when at rest.
    func releaseAll() throws(VirtualDeviceError) {
        guard !state.isAtRest else { return }
        var releases: [(type: UInt16, code: UInt16, value: Int32)] = []
        state.forEachRelease { type, code, value in releases.append((type, code, value)) }
        for release in releases { try send(type: release.type, code: release.code, value: release.value) }
        try send(type: EventType.syn, code: EventCode.synReport, value: 0)
    }
}
