import DaydreamProtocol

/// Everything the monitor shows, as plain values: the renderer is a pure function of this.
public struct MonitorState: Hashable, Sendable {
    /// The controller's address, or nil while none is chosen.
    public var address: String?
    /// Where the data comes from, e.g. `live` or `replay walk.recording`.
    public var source: String
    /// Whether the controller is connected.
    public var connected: Bool
    /// The newest packet, if any.
    public var packet: DaydreamPacket?
    /// Battery in percent, once read.
    public var battery: Int?
    /// Firmware version, once read.
    public var firmware: String?
    /// Packets per second over the last second.
    public var packetRate: Double
    /// Packets received.
    public var received: Int
    /// Packets missing from the sequence.
    public var lost: Int
    /// Notifications that were not packets.
    public var malformed: Int
    /// A status line (e.g. "waiting for a controller"), or nil.
    public var message: String?
    /// A running daemon's DSU lines (`DSU off`, or its address and one line per client); nil
    /// when no daemon runs.
    public var dsu: [String]?

    /// A state with everything given; the defaults are "nothing seen yet".
    public init(
        address: String? = nil, source: String = "live", connected: Bool = false, packet: DaydreamPacket? = nil,
        battery: Int? = nil, firmware: String? = nil, packetRate: Double = 0, received: Int = 0, lost: Int = 0,
        malformed: Int = 0, message: String? = nil, dsu: [String]? = nil
    ) {
        self.address = address
        self.source = source
        self.connected = connected
        self.packet = packet
        self.battery = battery
        self.firmware = firmware
        self.packetRate = packetRate
        self.received = received
        self.lost = lost
        self.malformed = malformed
        self.message = message
        self.dsu = dsu
    }
}
