/// One controller's record as the control socket's `controllers` gives it: one line, fields
/// separated by tabs, `-` for what is not known yet:
/// `ADDRESS  connected|disconnected|lent  BATTERY  FIRMWARE  PROFILE  NAME` (`lent`: connected,
/// its input lent to another program). The name (which a device
/// advertises, so anything) and the firmware have their tabs and line breaks turned to spaces.
public struct ControllerLine: Equatable, Sendable {
    /// `AA:BB:CC:DD:EE:FF`.
    public var address: String
    /// Whether its link is up.
    public var isConnected: Bool
    /// The last battery level read, in percent.
    public var batteryPercent: Int?
    /// The firmware version from Device Information.
    public var firmware: String?
    /// The profile the bridge runs for it.
    public var profile: String
    /// The name BlueZ knows it by.
    public var name: String?
    /// Whether it is lent to another program (the link field says `lent`).
    public var isLent = false

    /// The line for `status`.
    public init(_ status: ControllerStatus) {
        self.init(
            address: status.address, isConnected: status.isConnected, batteryPercent: status.batteryPercent,
            firmware: status.firmware, profile: status.profile, name: status.name)
        isLent = status.isLent
    }

    /// A line with these fields.
    public init(address: String, isConnected: Bool, batteryPercent: Int?, firmware: String?, profile: String, name: String?) {
        self.address = address
        self.isConnected = isConnected
        self.batteryPercent = batteryPercent
        self.firmware = firmware.map(Self.flattened)
        self.profile = profile
        self.name = name.map(Self.flattened)
    }

    /// Reads a line the daemon wrote; nil when it has not six fields or a bad link or battery.
    public init?(text: String) {
        let fields = text.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 6, ["connected", "disconnected", "lent"].contains(fields[1]) else { return nil }
        let battery = fields[2] == "-" ? nil : Int(fields[2])
        guard fields[2] == "-" || battery != nil else { return nil }
        self.init(
            address: fields[0], isConnected: fields[1] == "connected", batteryPercent: battery,
            firmware: fields[3] == "-" ? nil : fields[3], profile: fields[4], name: fields[5] == "-" ? nil : fields[5])
        isLent = fields[1] == "lent"
    }

    /// The line, without its newline.
    public var text: String {
        [address, isLent ? "lent" : isConnected ? "connected" : "disconnected", batteryPercent.map(String.init) ?? "-", firmware ?? "-", profile, name ?? "-"]
            .joined(separator: "\t")
    }

    private static func flattened(_ text: String) -> String {
        String(text.map { $0 == "\t" || $0.isNewline ? " " : $0 })
    }
}
