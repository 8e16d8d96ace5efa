/// The messages of `/dev/uhid` (`include/uapi/linux/uhid.h`): what the bridge
/// writes (create, input, destroy, the answers to report requests) and what
/// the kernel sends. Each is a packed `struct uhid_event`: a 32-bit type, then
/// that type's payload. Short writes are zero-filled by the kernel, so a
/// message is only as long as its payload needs.
public enum UHIDMessage {
    /// `enum uhid_event_type`.
    public enum EventType: UInt32, Sendable {
        case destroy = 1, start = 2, stop = 3, open = 4, close = 5, output = 6
        case getReport = 9, getReportReply = 10, create2 = 11, input2 = 12
        case setReport = 13, setReportReply = 14
    }

    /// `sizeof(struct uhid_event)`: the type and the largest payload (`uhid_create2_req`).
    public static let eventSize = 4 + 128 + 64 + 64 + 2 + 2 + 4 * 4 + maximumDescriptorSize
    /// `HID_MAX_DESCRIPTOR_SIZE`.
    public static let maximumDescriptorSize = 4096
    /// `UHID_DATA_MAX`: the longest report.
    public static let maximumDataSize = 4096
    /// `BUS_BLUETOOTH`.
    public static let bluetoothBus: UInt16 = 0x05

    /// What `UHID_CREATE2` says about the device.
    public struct Device: Sendable {
        public var name: String
        public var phys: String
        public var uniq: String
        public var bus: UInt16
        public var vendor: UInt32
        public var product: UInt32
        public var version: UInt32
        public var descriptor: [UInt8]

        public init(name: String, phys: String, uniq: String, bus: UInt16, vendor: UInt32, product: UInt32,
                    version: UInt32, descriptor: [UInt8]) {
            self.name = name
            self.phys = phys
            self.uniq = uniq
            self.bus = bus
            self.vendor = vendor
            self.product = product
            self.version = version
            self.descriptor = descriptor
        }
    }

    /// `UHID_CREATE2`: the whole event; strings cut to their fields less a NUL.
    public static func create(_ device: Device) -> [UInt8] {
        var message = header(.create2)
        appendString(device.name, width: 128, to: &message)
        appendString(device.phys, width: 64, to: &message)
        appendString(device.uniq, width: 64, to: &message)
        let descriptor = device.descriptor.prefix(maximumDescriptorSize)
        append(UInt16(descriptor.count), to: &message)
        append(device.bus, to: &message)
        append(device.vendor, to: &message)
        append(device.product, to: &message)
        append(device.version, to: &message)
        append(UInt32(0), to: &message)  // country
        message += descriptor
        return message
    }

    /// `UHID_INPUT2` with `report` (its id first).
    public static func input(_ report: [UInt8]) -> [UInt8] {
        var message = header(.input2)
        let data = report.prefix(maximumDataSize)
        append(UInt16(data.count), to: &message)
        message += data
        return message
    }

    /// `UHID_DESTROY`.
    public static func destroy() -> [UInt8] { header(.destroy) }

    /// `UHID_GET_REPORT_REPLY` to request `id`: the report, or an errno with no data.
    public static func getReportReply(id: UInt32, report: [UInt8]?, errno: UInt16) -> [UInt8] {
        var message = header(.getReportReply)
        append(id, to: &message)
        let data = report?.prefix(maximumDataSize) ?? []
        append(report == nil ? errno : 0, to: &message)
        append(UInt16(data.count), to: &message)
        message += data
        return message
    }

    /// `UHID_SET_REPORT_REPLY` to request `id`, with `errno` (0 for done).
    public static func setReportReply(id: UInt32, errno: UInt16) -> [UInt8] {
        var message = header(.setReportReply)
        append(id, to: &message)
        append(errno, to: &message)
        return message
    }

    private static func header(_ type: EventType) -> [UInt8] {
        var message: [UInt8] = []
        message.reserveCapacity(eventSize)
        append(type.rawValue, to: &message)
        return message
    }

    private static func appendString(_ text: String, width: Int, to message: inout [UInt8]) {
        let bytes = Array(text.utf8.prefix(width - 1))
        message += bytes
        message += [UInt8](repeating: 0, count: width - bytes.count)
    }

    private static func append<Value: FixedWidthInteger>(_ value: Value, to message: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { message += $0 }
    }
}
