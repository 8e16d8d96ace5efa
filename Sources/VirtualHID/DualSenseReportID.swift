/// The reports of a DualSense on USB that the kernel's hid-playstation and
/// SDL's PS5 driver use: their ids and their lengths, the id byte included.
public enum DualSenseReportID: UInt8, CaseIterable, Sendable {
    /// The input report: sticks, triggers, buttons, motion, touch, battery.
    case input = 0x01
    /// The output report games write: rumble, lightbar, player LEDs.
    case output = 0x02
    /// Feature: the motion sensors' calibration.
    case calibration = 0x05
    /// Feature: the pairing information, which holds the device's address.
    case pairingInfo = 0x09
    /// Feature: the firmware and hardware versions.
    case firmwareInfo = 0x20

    /// The report's length in bytes, its id byte included
    /// (hid-playstation's `DS_*_SIZE`; it rejects any other length).
    public var length: Int {
        switch self {
        case .input: 64
        case .output: 63
        case .calibration: 41
        case .pairingInfo: 20
        case .firmwareInfo: 64
        }
    }

    /// The feature reports the device answers.
    public static let features: [DualSenseReportID] = [.calibration, .pairingInfo, .firmwareInfo]
}
