/// The report descriptor of the virtual DualSense on Bluetooth, written from
/// the layout hid-playstation reads (`struct dualsense_input_report` after
/// the id and a sequence byte) and the report lengths it checks.
///
/// hid-playstation reads fields by offset, not through the descriptor; what it
/// needs from the HID core is every report id with its length, or the core
/// drops the report. The fields are still declared with what they are (sticks,
/// hat, buttons, motion, timestamp) so a generic parser reads the same values:
/// the tests check the encoder against an independent one.
public enum DualSenseReportDescriptor {
    /// Generic Desktop, Button and a vendor page.
    private static let genericDesktop: UInt16 = 0x01
    private static let buttonPage: UInt16 = 0x09
    private static let vendorPage: UInt16 = 0xFF00

    /// The descriptor's items, in order.
    public static let items: [HIDItem] = {
        var items: [HIDItem] = [.usagePage(genericDesktop), .usage(0x05), .applicationCollection]
        items += inputReport
        items += vendorReport(.state, usage: 0x30, main: .output)
        for feature in DualSenseReportID.features {
            items += vendorReport(feature, usage: UInt16(feature.rawValue), main: .feature)
        }
        items.append(.endCollection)
        return items
    }()

    /// The descriptor's bytes, for `UHID_CREATE2`.
    public static let bytes: [UInt8] = items.flatMap(\.bytes)

    /// Report 0x31: 77 bytes after the id, laid out as `DualSenseInputReportEncoder` writes them.
    private static let inputReport: [HIDItem] = [
        .reportID(DualSenseReportID.state.rawValue),
        // Byte 1: the Bluetooth sequence number.
        .usagePage(vendorPage), .usage(0x2B), .logicalMinimum(0), .logicalMaximum(255), .reportSize(8),
        .reportCount(1), .input(),
        // Bytes 2-7: left stick X/Y, right stick Z/Rz, L2 Rx, R2 Ry.
        .usagePage(genericDesktop),
        .usage(0x30), .usage(0x31), .usage(0x32), .usage(0x35), .usage(0x33), .usage(0x34),
        .reportCount(6), .input(),
        // Byte 8: the report counter.
        .usagePage(vendorPage), .usage(0x20), .reportCount(1), .input(),
        // Byte 9, low nibble: the d-pad, 0 north clockwise to 7, 8 centred.
        .usagePage(genericDesktop), .usage(0x39), .logicalMinimum(0), .logicalMaximum(7),
        .physicalMinimum(0), .physicalMaximum(315), .unit(0x14), .reportSize(4), .reportCount(1),
        .input(nullState: true),
        .unit(0), .physicalMaximum(0),
        // Byte 9 high nibble to byte 11 bit 2: fifteen buttons.
        .usagePage(buttonPage), .usageMinimum(1), .usageMaximum(15), .logicalMaximum(1),
        .reportSize(1), .reportCount(15), .input(),
        // The rest of bytes 11 and 12, and bytes 13-16: unused.
        .usagePage(vendorPage), .usage(0x21), .reportCount(13), .input(),
        .usage(0x22), .logicalMaximum(255), .reportSize(8), .reportCount(4), .input(),
        // Bytes 17-28: gyro x, y, z and acceleration x, y, z, signed 16 bits.
        .usage(0x23), .usage(0x24), .usage(0x25), .usage(0x26), .usage(0x27), .usage(0x28),
        .logicalMinimum(-32768), .logicalMaximum(32767), .reportSize(16), .reportCount(6), .input(),
        // Bytes 29-32: the sensor clock, in thirds of a microsecond.
        .usage(0x29), .logicalMinimum(Int32.min), .logicalMaximum(Int32.max), .reportSize(32),
        .reportCount(1), .input(),
        // Bytes 33-73: temperature, two touch points, status (battery), the rest.
        .usage(0x2A), .logicalMinimum(0), .logicalMaximum(255), .reportSize(8), .reportCount(41), .input(),
        // Bytes 74-77: the CRC (`DualSenseChecksum`).
        .usage(0x2C), .logicalMinimum(Int32.min), .logicalMaximum(Int32.max), .reportSize(32), .reportCount(1),
        .input(),
    ]

    /// A report of opaque bytes on the vendor page: `length - 1` bytes after the id.
    private static func vendorReport(_ id: DualSenseReportID, usage: UInt16, main: HIDItem) -> [HIDItem] {
        [
            .reportID(id.rawValue), .usagePage(vendorPage), .usage(usage), .logicalMinimum(0),
            .logicalMaximum(255), .reportSize(8), .reportCount(UInt32(id.length - 1)), main,
        ]
    }
}
