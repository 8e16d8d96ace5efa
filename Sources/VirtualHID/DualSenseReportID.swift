/// The reports of a DualSense on Bluetooth that the kernel's hid-playstation
/// and SDL's PS5 driver use: their ids and their lengths, the id byte
/// included. On Bluetooth every one of them ends in a CRC-32
/// (`DualSenseChecksum`).
public enum DualSenseReportID: UInt8, CaseIterable, Sendable {
    /// The full report, both ways: the input state (sticks, triggers, buttons,
    /// motion, touch, battery) from the device, effects (rumble, lightbar,
    /// player LEDs) from the host.
    case state = 0x31
    /// Feature: the motion sensors' calibration.
    case calibration = 0x05
    /// Feature: the pairing information, which holds the device's address.
    case pairingInfo = 0x09
    /// Feature: the firmware and hardware versions.
    case firmwareInfo = 0x20

    /// The report's length in bytes, its id byte and CRC included
    /// (hid-playstation's `DS_*_SIZE`; it rejects any other length).
    public var length: Int {
        switch self {
        case .state: 78
        case .calibration: 41
        case .pairingInfo: 20
        case .firmwareInfo: 64
        }
    }

    /// The feature reports the device answers.
    public static let features: [DualSenseReportID] = [.calibration, .pairingInfo, .firmwareInfo]
}
