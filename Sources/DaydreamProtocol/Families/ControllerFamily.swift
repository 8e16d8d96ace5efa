/// A kind of controller, as data: how it is found, its GATT profile, how its stream is started,
/// kept and stopped, how its packets decode and encode, its buttons and its scales.
///
/// `all` is the one list. Everything after the decoder reads the `DaydreamPacket` it makes, so a
/// family is added by describing it here (a file of its own) and appending it to `all`.
public struct ControllerFamily: Sendable {
    /// Decodes one notification into the common packet (allocates nothing).
    public typealias Decoder = @Sendable (UnsafeRawBufferPointer) throws(PacketDecodingError) -> DaydreamPacket
    /// Encodes a decoded packet back into its bytes.
    public typealias Encoder = @Sendable (DaydreamPacket) -> [UInt8]

    /// The number packets carry.
    public var id: ControllerFamilyID
    /// The name configs, recordings and the command line use: `daydream`, `gear-vr`, `oculus-go`.
    public var name: String
    /// For people: "Gear VR controller".
    public var displayName: String
    /// Support built on a second-hand description, not on captures.
    public var isExperimental: Bool
    /// How the controller is recognised before connecting.
    public var discovery: Discovery
    /// Its GATT profile.
    public var gatt: GATTProfile
    /// Its start, keep-alive and stop protocol.
    public var stream: StreamProtocol
    /// The buttons it has.
    public var buttons: DaydreamButtons
    /// What its counts are worth.
    public var scale: IMUScale
    /// IMU samples in one packet.
    public var samplesPerPacket: Int
    public var decode: Decoder
    public var encode: Encoder
    /// One line of JSON for `decode` and `replay --print`: `raw` as the packet says it, scaled values beside it.
    public var json: @Sendable (DaydreamPacket) -> String
    /// Whether its packets carry the orientation, or the feed works it out from the IMU.
    public var orientation: OrientationSource = .estimated

    /// Advertising that names the family.
    public struct Discovery: Sendable {
        /// A local name starting with one of these.
        public var namePrefixes: [String]
        /// Or one of these services advertised or offered (lower-case 128-bit UUIDs).
        public var serviceUUIDs: [String]
        /// The names must match whole, not as prefixes (the Daydream's exact name).
        public var exactName = false

        /// Whether a device advertising `name` and `services` is of the family.
        public func matches(name: String?, services: [String]) -> Bool {
            if let name, namePrefixes.contains(where: { exactName ? name == $0 : name.hasPrefix($0) }) { return true }
            return services.contains { serviceUUIDs.contains($0.lowercased()) }
        }
    }

    /// The services and characteristics the bridge uses.
    public struct GATTProfile: Sendable {
        /// The service that holds the input stream.
        public var dataService: String
        /// The characteristic that notifies the input packets.
        public var input: String
        /// The characteristic commands are written to, when the protocol writes any.
        public var command: String?
        /// The length of one input packet.
        public var packetLength: Int
        /// Services the bridge must never write to (the firmware update service).
        public var untouchable: [String]
        /// Every service the controller offers: a device offering any other is a look-alike.
        public var serviceLayout: Set<String>
    }

    /// The decoded packet's bytes.
    public func bytes(of packet: DaydreamPacket) -> [UInt8] { encode(packet) }

    /// Every family, in `ControllerFamilyID` order.
    public static let all: [ControllerFamily] = [.daydream, .gearVR, .oculusGo]

    /// The family named `name`, or nil.
    public static func named(_ name: String) -> ControllerFamily? {
        all.first { $0.name == name }
    }

    /// The family `id` describes (the Daydream for a number no family has).
    public static func described(by id: ControllerFamilyID) -> ControllerFamily {
        all.first { $0.id == id } ?? .daydream
    }

    /// The family a device advertising `name` and `services` belongs to, or nil.
    public static func recognising(name: String?, services: [String]) -> ControllerFamily? {
        all.first { $0.discovery.matches(name: name, services: services) }
    }

    /// Every service any family's controller offers.
    public static var allServices: Set<String> { all.reduce(into: []) { $0.formUnion($1.gatt.serviceLayout) } }

    /// The names of the families that have `button`.
    public static func having(_ button: DaydreamButtons) -> [String] {
        all.filter { $0.buttons.isSuperset(of: button) }.map(\.name)
    }
}

/// How a family's stream is started, kept alive and stopped: the data `ControllerStreamMachine`
/// (in DaydreamCore) runs.
public struct StreamProtocol: Sendable {
    /// One write of the start sequence.
    public struct Step: Sendable, Hashable {
        /// The command, as written (little endian: `[0x08, 0x00]` is 0x0008).
        public var command: [UInt8]
        /// Whether the controller's echo of it must arrive before the next step.
        public var awaitsEcho: Bool

        public init(command: [UInt8], awaitsEcho: Bool) {
            self.command = command
            self.awaitsEcho = awaitsEcho
        }
    }

    /// Written in order once subscribed; empty: the controller streams once subscribed.
    public var start: [Step]
    /// How long to wait for an echo before the start counts as failed.
    public var echoTimeoutMilliseconds: Int
    /// Written every `keepAliveMilliseconds` while streaming, when not nil.
    public var keepAlive: [UInt8]?
    public var keepAliveMilliseconds: Int
    /// Written when the bridge lets go of the controller.
    public var stop: [UInt8]?
    /// A silence this long restarts the sequence (or resubscribes, without one).
    public var restartAfterSilenceMilliseconds: Int?
    /// Restarts tried in a row before the link counts as down.
    public var restartTries: Int
    /// Notifications of this length are command echoes, never input.
    public var echoLength: Int?

    public init(
        start: [Step] = [], echoTimeoutMilliseconds: Int = 3000, keepAlive: [UInt8]? = nil,
        keepAliveMilliseconds: Int = 10_000, stop: [UInt8]? = nil, restartAfterSilenceMilliseconds: Int? = nil,
        restartTries: Int = 0, echoLength: Int? = nil
    ) {
        self.start = start
        self.echoTimeoutMilliseconds = echoTimeoutMilliseconds
        self.keepAlive = keepAlive
        self.keepAliveMilliseconds = keepAliveMilliseconds
        self.stop = stop
        self.restartAfterSilenceMilliseconds = restartAfterSilenceMilliseconds
        self.restartTries = restartTries
        self.echoLength = echoLength
    }

    /// Nothing to write: the Daydream streams as soon as it is subscribed.
    public var isPassive: Bool { start.isEmpty && keepAlive == nil && stop == nil }
}
