import Descriptors
import Glibc
import VirtualHID

/// One HID device on `/dev/uhid`: created with `UHID_CREATE2`, fed input reports with
/// `UHID_INPUT2`, destroyed with `UHID_DESTROY` (or by closing the descriptor).
///
/// The kernel's requests are read by `readAvailable()`, which the owner calls when the
/// descriptor is readable (a `Reactor` watch) or when it drains a flood: feature reports are
/// answered at once from `features`, set-report requests are acknowledged and ignored, output
/// reports (rumble, lights) are counted and dropped. Nothing here blocks: the descriptor is non-blocking, and a
/// write that fails is counted and kept in `writeFailure` for the owner to act on.
public final class UHIDDevice {
    /// What went by that the bridge does not act on, and what failed.
    public struct Counters: Hashable, Sendable {
        /// Output reports from games or the driver (rumble, lightbar, player LEDs), ignored.
        public var outputReports = 0
        /// Set-report requests, acknowledged and ignored.
        public var setReports = 0
        /// Report requests for a report the device does not have, answered with EIO.
        public var unknownRequests = 0
        /// Messages too short for their type, or of a type the bridge does not know.
        public var malformedMessages = 0
        /// Writes the kernel refused (a report, an answer).
        public var writeErrors = 0
    }

    /// A write the kernel refused: what it was and the error.
    public struct WriteFailure: Error, Hashable, Sendable, CustomStringConvertible {
        /// What was written, e.g. "an input report".
        public let what: String
        /// The `errno` of the write (`EIO` for a short write).
        public let code: Int32

        public var description: String {
            "cannot write \(what) to /dev/uhid: \(String(cString: strerror(code)))"
        }
    }

    /// The device the kernel sees.
    public let device: UHIDMessage.Device
    /// Counts of what was ignored or failed.
    public private(set) var counters = Counters()
    /// True once `UHID_START` came: a driver (hid-playstation, or hid-generic) bound the device.
    public private(set) var started = false
    /// True while someone (an input node's reader, hidraw) has the device open.
    public private(set) var opened = false
    /// The first write the kernel refused, if one was: the device is then of no more use.
    public private(set) var writeFailure: WriteFailure?
    /// Told once about a malformed message, with a sentence.
    public var problemHandler: ((String) -> Void)?

    private let descriptor: FileDescriptor
    private let features: (UInt8) -> [UInt8]?
    private let readBuffer: UnsafeMutableRawBufferPointer
    private var inputMessage: [UInt8]
    private var reportedMalformed = false

    /// Sends `UHID_CREATE2` for `device` on `descriptor` (an open, non-blocking `/dev/uhid`);
    /// `features` answers feature-report requests by report id (nil: no such report).
    public init(
        descriptor: consuming FileDescriptor, device: UHIDMessage.Device, features: @escaping (UInt8) -> [UInt8]?
    ) throws(SystemCallError) {
        self.descriptor = descriptor
        self.device = device
        self.features = features
        readBuffer = .allocate(byteCount: Self.readSize, alignment: 8)
        inputMessage = UHIDMessage.input([])
        inputMessage.reserveCapacity(inputMessage.count + UHIDMessage.maximumDataSize)
        let create = UHIDMessage.create(device)
        let written = create.withUnsafeBytes { write(self.descriptor.rawValue, $0.baseAddress, $0.count) }
        if written != create.count {
            // Thrown from a whole instance: deinit frees the buffer and closes the descriptor.
            throw SystemCallError("write UHID_CREATE2", code: written < 0 ? errno : EIO)
        }
    }

    deinit {
        // Closing /dev/uhid destroys the device too; saying so first keeps the order explicit.
        _ = UHIDMessage.destroy().withUnsafeBytes { write(descriptor.rawValue, $0.baseAddress, $0.count) }
        readBuffer.deallocate()
    }

    /// The descriptor to watch for readability.
    public var fileDescriptor: Int32 { descriptor.rawValue }

    /// Writes `report` (its id first) as one input report. False, counted and kept in
    /// `writeFailure`, when the kernel refuses it (the device failed to register, or is gone).
    @discardableResult
    public func sendInput(_ report: [UInt8]) -> Bool {
        let header = 6
        let size = min(report.count, UHIDMessage.maximumDataSize)
        inputMessage.removeSubrange(header...)
        inputMessage.append(contentsOf: report.prefix(size))
        inputMessage[4] = UInt8(size & 0xFF)
        inputMessage[5] = UInt8(size >> 8)
        return send(inputMessage, what: "an input report")
    }

    /// What one `readAvailable()` read.
    public struct Drain: Hashable, Sendable {
        /// Events read.
        public var events = 0
        /// Whether every one was an output report (nothing to answer, nothing that changes the
        /// device's state).
        public var onlyOutputReports = true
    }

    /// How much of each event is read: its type and the fields the bridge acts on (a request's
    /// id, report number and type). uhid gives one event per read and drops what a shorter read
    /// leaves, so an output report's 4 KB of data, which the bridge ignores, are never copied.
    static let readSize = 16

    /// Reads and handles everything the kernel has sent, until the descriptor has no more.
    /// Output reports are only counted: no decoding, no allocation.
    @discardableResult
    public func readAvailable() -> Drain {
        var drain = Drain()
        let buffer = readBuffer.baseAddress
        while true {
            let count = retryingOnInterrupt { read(descriptor.rawValue, buffer, readBuffer.count) }
            if count < 0 {
                return drain  // EAGAIN: all read; anything else shows on the next write
            }
            if count == 0 { return drain }
            drain.events += 1
            if count >= 4 && UInt32(littleEndian: readBuffer.load(as: UInt32.self)) == UHIDMessage.EventType.output.rawValue {
                counters.outputReports += 1
                continue
            }
            drain.onlyOutputReports = false
            handle(UHIDKernelEvent(UnsafeRawBufferPointer(rebasing: readBuffer[..<count])))
        }
    }

    private func handle(_ event: UHIDKernelEvent) {
        switch event {
        case .start: started = true
        case .stop: started = false
        case .open: opened = true
        case .close: opened = false
        case .output: counters.outputReports += 1
        case .getReport(let id, let number, let type):
            let report = type == UHIDReportType.feature ? features(number) : nil
            if report == nil { counters.unknownRequests += 1 }
            send(UHIDMessage.getReportReply(id: id, report: report, errno: UInt16(EIO)), what: "a report answer")
        case .setReport(let id, _, _):
            counters.setReports += 1
            send(UHIDMessage.setReportReply(id: id, errno: 0), what: "a set-report answer")
        case .unknown(let type, let length):
            counters.malformedMessages += 1
            if !reportedMalformed {
                reportedMalformed = true
                problemHandler?("ignoring a /dev/uhid message of type \(type) (\(length) bytes read; reported once)")
            }
        }
    }

    @discardableResult
    private func send(_ message: [UInt8], what: String) -> Bool {
        let written = message.withUnsafeBytes { write(descriptor.rawValue, $0.baseAddress, $0.count) }
        if written == message.count { return true }
        let code = written < 0 ? errno : EIO
        counters.writeErrors += 1
        if writeFailure == nil { writeFailure = WriteFailure(what: what, code: code) }
        return false
    }
}

/// `enum uhid_report_type`.
enum UHIDReportType {
    static let feature: UInt8 = 0
    static let output: UInt8 = 1
    static let input: UInt8 = 2
}
