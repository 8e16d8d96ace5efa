/// The feature reports hid-playstation asks for at probe, and SDL's PS5
/// driver reads through hidraw: calibration (0x05), pairing info (0x09),
/// firmware info (0x20). Each answer starts with its report id, has the
/// exact length the driver checks, and ends in its Bluetooth CRC
/// (`DualSenseChecksum.featureSeed`).
public struct DualSenseFeatureReports: Sendable {
    /// The device's address, from the pairing report.
    public let address: DualSenseAddress

    /// The hardware version the firmware report gives (offset 24, little endian).
    public static let hardwareVersion: UInt32 = 0x0000_0001
    /// The firmware version the firmware report gives (offset 28).
    public static let firmwareVersion: UInt32 = 0x0000_0110
    /// The update version (offset 44, 16 bits): 1.10, older than 2.21 and 2.24,
    /// so hid-playstation and SDL keep the first rumble protocol.
    public static let updateVersion: UInt16 = 0x0110

    /// The answers for the device at `address`.
    public init(address: DualSenseAddress) {
        self.address = address
    }

    /// The report with id `id`, or nil for an id the device does not answer.
    public func report(id: UInt8) -> [UInt8]? {
        switch DualSenseReportID(rawValue: id) {
        case .calibration: calibration
        case .pairingInfo: pairingInfo
        case .firmwareInfo: firmwareInfo
        default: nil
        }
    }

    /// 0x05, 41 bytes: three gyro biases, gyro plus/minus per axis, the speed
    /// plus/minus, then accelerometer plus/minus per axis, all signed 16 bits
    /// (see `DualSenseMotionUnits`).
    public var calibration: [UInt8] {
        let gyro = DualSenseMotionUnits.calibrationGyroReading
        let speed = DualSenseMotionUnits.calibrationGyroSpeed
        let acceleration = DualSenseMotionUnits.calibrationAccelerationReading
        let fields: [Int16] = [
            0, 0, 0,  // pitch, yaw, roll bias
            gyro, -gyro, gyro, -gyro, gyro, -gyro,  // pitch, yaw, roll plus and minus
            speed, speed,  // speed plus and minus
            acceleration, -acceleration, acceleration, -acceleration, acceleration, -acceleration,
        ]
        var report = [DualSenseReportID.calibration.rawValue]
        for field in fields {
            let bits = UInt16(bitPattern: field)
            report += [UInt8(bits & 0xFF), UInt8(bits >> 8)]
        }
        return sealed(padded(report, to: .calibration))
    }

    /// 0x09, 20 bytes: the address, least significant octet first, at offset 1.
    public var pairingInfo: [UInt8] {
        sealed(padded([DualSenseReportID.pairingInfo.rawValue] + address.reportOrder, to: .pairingInfo))
    }

    /// 0x20, 64 bytes: the hardware version at offset 24, the firmware version at 28,
    /// the update version at 44.
    public var firmwareInfo: [UInt8] {
        var report = padded([DualSenseReportID.firmwareInfo.rawValue], to: .firmwareInfo)
        Self.store(Self.hardwareVersion, into: &report, at: 24)
        Self.store(Self.firmwareVersion, into: &report, at: 28)
        report[44] = UInt8(Self.updateVersion & 0xFF)
        report[45] = UInt8(Self.updateVersion >> 8)
        return sealed(report)
    }

    private func sealed(_ report: [UInt8]) -> [UInt8] {
        var report = report
        DualSenseChecksum.seal(&report, seed: DualSenseChecksum.featureSeed)
        return report
    }

    private func padded(_ bytes: [UInt8], to id: DualSenseReportID) -> [UInt8] {
        bytes + [UInt8](repeating: 0, count: id.length - bytes.count)
    }

    private static func store(_ value: UInt32, into report: inout [UInt8], at offset: Int) {
        for index in 0..<4 {
            report[offset + index] = UInt8((value >> (8 * UInt32(index))) & 0xFF)
        }
    }
}
