/// What a slot holds: the 11 bytes that open both a controller-info reply and a data message.
public struct DSUControllerInfo: Hashable, Sendable {
    /// Whether a controller is in the slot.
    public enum State: UInt8, Sendable {
        case disconnected = 0
        case reserved = 1
        case connected = 2
    }

    /// What motion the controller reports.
    public enum Model: UInt8, Sendable {
        case notApplicable = 0
        case partialGyro = 1
        case fullGyro = 2
    }

    /// How the controller is linked.
    public enum Connection: UInt8, Sendable {
        case notApplicable = 0
        case usb = 1
        case bluetooth = 2
    }

    /// The protocol's battery codes.
    public enum Battery: UInt8, Sendable {
        case notApplicable = 0x00
        case dying = 0x01
        case low = 0x02
        case medium = 0x03
        case high = 0x04
        case full = 0x05
        case charging = 0xEE
        case charged = 0xEF

        /// The code for a level in percent: full above 90, high above 60, medium above 30, low
        /// above 10, dying at 10 and below; nil (not read yet) is "not applicable".
        public init(percent: Int?) {
            guard let percent else {
                self = .notApplicable
                return
            }
            switch percent {
            case 91...: self = .full
            case 61...: self = .high
            case 31...: self = .medium
            case 11...: self = .low
            default: self = .dying
            }
        }
    }

    public var slot: UInt8
    public var state: State
    public var model: Model
    public var connection: Connection
    public var mac: DSUMACAddress
    public var battery: Battery

    public init(
        slot: UInt8, state: State, model: Model = .fullGyro, connection: Connection = .bluetooth,
        mac: DSUMACAddress, battery: Battery = .notApplicable
    ) {
        self.slot = slot
        self.state = state
        self.model = model
        self.connection = connection
        self.mac = mac
        self.battery = battery
    }

    /// A slot with nothing in it: zeros but for the slot number, as the protocol asks.
    public static func empty(slot: UInt8) -> DSUControllerInfo {
        DSUControllerInfo(slot: slot, state: .disconnected, model: .notApplicable, connection: .notApplicable, mac: .none)
    }
}
