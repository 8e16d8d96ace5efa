import DaydreamProtocol
import Timebase

/// A recording of one controller: what it said about itself, then every packet and link
/// change with the time it arrived, as an offset from the start of the recording.
///
/// The text form is `RecordingFormat`; `RecordingParser` reads it and `RecordingWriter` writes it.
public struct Recording: Hashable, Sendable {
    /// The format version the text declared (`RecordingFormat.version` for new recordings).
    public var version: Int
    /// The device information lines.
    public var info: RecordingInfo
    /// The timed entries, in the order they arrived (times never decrease).
    public var entries: [RecordingEntry]

    /// A recording with everything given.
    public init(version: Int = RecordingFormat.version, info: RecordingInfo = RecordingInfo(), entries: [RecordingEntry] = []) {
        self.version = version
        self.info = info
        self.entries = entries
    }

    /// The time of the last entry, or zero for an empty recording.
    public var duration: TimeSpan { entries.last?.time ?? .zero }

    /// The packets alone, in order.
    public var packets: [DaydreamPacket] {
        entries.compactMap { entry in
            if case .packet(let packet) = entry.event { return packet }
            return nil
        }
    }
}

/// What a controller said about itself, and when and where it was recorded. Every field is optional.
public struct RecordingInfo: Hashable, Sendable {
    /// `address`: the Bluetooth address, `AA:BB:CC:DD:EE:FF`.
    public var address: String?
    /// `name`: the advertised name.
    public var name: String?
    /// `manufacturer`, from the Device Information service.
    public var manufacturer: String?
    /// `model`, from the Device Information service.
    public var model: String?
    /// `serial`, from the Device Information service.
    public var serial: String?
    /// `hardware`: the hardware revision.
    public var hardware: String?
    /// `firmware`: the firmware revision.
    public var firmware: String?
    /// `software`: the software revision.
    public var software: String?
    /// `battery`: percent when the recording started.
    public var battery: Int?
    /// `recorded`: the wall-clock start, ISO 8601 in UTC, for people (replay never reads it).
    public var recorded: String?
    /// `source`: what made the recording (`daydream-bridge 0.1.0`, `scenario`, `emulator`).
    public var source: String?
    /// `family`: the controller's family (`daydream`, `gear-vr`, `oculus-go`), which says how its
    /// packets decode; a recording without it is a Daydream's.
    public var family: ControllerFamilyID?
    /// The family the packets are of: `family`, or the Daydream.
    public var controllerFamily: ControllerFamily { (family ?? .daydream).family }
    /// Keys this version does not know, kept in file order so newer recordings still replay.
    public var extra: [RecordingField]

    /// Information with every field given; all empty by default.
    public init(
        address: String? = nil, name: String? = nil, manufacturer: String? = nil, model: String? = nil,
        serial: String? = nil, hardware: String? = nil, firmware: String? = nil, software: String? = nil,
        battery: Int? = nil, recorded: String? = nil, source: String? = nil, family: ControllerFamilyID? = nil,
        extra: [RecordingField] = []
    ) {
        self.address = address
        self.name = name
        self.manufacturer = manufacturer
        self.model = model
        self.serial = serial
        self.hardware = hardware
        self.firmware = firmware
        self.software = software
        self.battery = battery
        self.family = family
        self.recorded = recorded
        self.source = source
        self.extra = extra
    }
}

/// One `key value` line the parser did not know.
public struct RecordingField: Hashable, Sendable {
    /// The key, the first word of the line.
    public var key: String
    /// The rest of the line, trimmed.
    public var value: String

    /// A field with its key and value.
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

/// One timed line: something that happened `time` after the recording started.
public struct RecordingEntry: Hashable, Sendable {
    /// The offset from the start of the recording.
    public var time: TimeSpan
    /// What happened.
    public var event: RecordingEvent

    /// An entry with its time and event.
    public init(time: TimeSpan, event: RecordingEvent) {
        self.time = time
        self.event = event
    }
}

/// What a timed line records.
public enum RecordingEvent: Hashable, Sendable {
    /// One 20-byte input notification.
    case packet(DaydreamPacket)
    /// The link came up (the controller started streaming).
    case connected
    /// The link went down.
    case disconnected
    /// A battery level was read, in percent.
    case battery(Int)
}
