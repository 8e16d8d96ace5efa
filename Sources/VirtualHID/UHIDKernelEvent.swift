/// A message the kernel sent on `/dev/uhid`, decoded.
public enum UHIDKernelEvent: Hashable, Sendable {
    /// The HID core bound a driver (`UHID_START`).
    case start
    /// The driver let go (`UHID_STOP`).
    case stop
    /// Someone opened the device (`UHID_OPEN`).
    case open
    /// The last one closed it (`UHID_CLOSE`).
    case close
    /// A report for the device (`UHID_OUTPUT`): rumble, lights; `size` bytes of it.
    case output(reportID: UInt8, size: Int)
    /// A request for a report, to be answered with the same `id` (`UHID_GET_REPORT`).
    case getReport(id: UInt32, reportNumber: UInt8, reportType: UInt8)
    /// A report to store, to be answered with the same `id` (`UHID_SET_REPORT`).
    case setReport(id: UInt32, reportNumber: UInt8, reportType: UInt8)
    /// A type this bridge does not know, or a message too short for its type.
    case unknown(type: UInt32, length: Int)

    /// Decodes one read from `/dev/uhid`. The kernel may send less than the
    /// whole struct; the missing bytes count as zeros.
    public init(_ bytes: UnsafeRawBufferPointer) {
        func byte(_ offset: Int) -> UInt8 { offset < bytes.count ? bytes[offset] : 0 }
        func u16(_ offset: Int) -> UInt16 { UInt16(byte(offset)) | UInt16(byte(offset + 1)) << 8 }
        func u32(_ offset: Int) -> UInt32 { UInt32(u16(offset)) | UInt32(u16(offset + 2)) << 16 }

        guard bytes.count >= 4 else {
            self = .unknown(type: 0, length: bytes.count)
            return
        }
        let type = u32(0)
        switch UHIDMessage.EventType(rawValue: type) {
        case .start: self = .start
        case .stop: self = .stop
        case .open: self = .open
        case .close: self = .close
        case .output:
            // struct uhid_output_req: data[4096], u16 size, u8 rtype.
            let size = Int(u16(4 + UHIDMessage.maximumDataSize))
            self = .output(reportID: byte(4), size: min(size, UHIDMessage.maximumDataSize))
        case .getReport:
            self = .getReport(id: u32(4), reportNumber: byte(8), reportType: byte(9))
        case .setReport:
            self = .setReport(id: u32(4), reportNumber: byte(8), reportType: byte(9))
        default:
            self = .unknown(type: type, length: bytes.count)
        }
    }
}
