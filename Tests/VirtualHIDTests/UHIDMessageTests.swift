import Testing

@testable import VirtualHID

@Suite struct UHIDMessageTests {
    private func u16(_ bytes: [UInt8], _ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }
    private func u32(_ bytes: [UInt8], _ offset: Int) -> Int { u16(bytes, offset) | u16(bytes, offset + 2) << 16 }

    @Test func theEventIsAsLargeAsTheCreateRequest() {
        #expect(UHIDMessage.eventSize == 4376)
    }

    @Test func createLaysOutUhidCreate2Req() {
        let descriptor: [UInt8] = [0x05, 0x01, 0xC0]
        let message = UHIDMessage.create(.init(
            name: "Wireless Controller", phys: "daydream-bridge/ec:12", uniq: "ee:12:34:56:78:9a",
            bus: UHIDMessage.bluetoothBus, vendor: 0x054C, product: 0x0CE6, version: 0x8100, descriptor: descriptor))
        #expect(u32(message, 0) == 11)
        #expect(String(decoding: message[4..<23], as: UTF8.self) == "Wireless Controller")
        #expect(message[23] == 0)
        #expect(String(decoding: message[132..<153], as: UTF8.self) == "daydream-bridge/ec:12")
        #expect(String(decoding: message[196..<213], as: UTF8.self) == "ee:12:34:56:78:9a")
        #expect(u16(message, 260) == 3)  // rd_size
        #expect(u16(message, 262) == 5)  // bus
        #expect(u32(message, 264) == 0x054C)
        #expect(u32(message, 268) == 0x0CE6)
        #expect(u32(message, 272) == 0x8100)
        #expect(u32(message, 276) == 0)
        #expect(Array(message[280...]) == descriptor)
    }

    @Test func longStringsAreCutAndEndInANul() {
        let message = UHIDMessage.create(.init(
            name: String(repeating: "n", count: 300), phys: "", uniq: String(repeating: "u", count: 64),
            bus: 3, vendor: 0, product: 0, version: 0, descriptor: []))
        #expect(message[4..<131].allSatisfy { $0 == UInt8(ascii: "n") })
        #expect(message[131] == 0)
        #expect(message[196 + 63] == 0)
        #expect(message.count == 280)
    }

    @Test func inputCarriesTheReportAfterItsSize() {
        let message = UHIDMessage.input([0x01, 0xAA, 0xBB])
        #expect(message == [12, 0, 0, 0, 3, 0, 0x01, 0xAA, 0xBB])
    }

    @Test func repliesCarryTheRequestIdAndAnErrnoOrTheReport() {
        #expect(UHIDMessage.getReportReply(id: 0x0102_0304, report: [0x05, 0x06], errno: 5)
            == [10, 0, 0, 0, 0x04, 0x03, 0x02, 0x01, 0, 0, 2, 0, 0x05, 0x06])
        #expect(UHIDMessage.getReportReply(id: 7, report: nil, errno: 5) == [10, 0, 0, 0, 7, 0, 0, 0, 5, 0, 0, 0])
        #expect(UHIDMessage.setReportReply(id: 9, errno: 0) == [14, 0, 0, 0, 9, 0, 0, 0, 0, 0])
        #expect(UHIDMessage.destroy() == [1, 0, 0, 0])
    }

    private func decode(_ bytes: [UInt8]) -> UHIDKernelEvent {
        bytes.withUnsafeBytes { UHIDKernelEvent($0) }
    }

    @Test func decodesWhatTheKernelSends() {
        #expect(decode([2, 0, 0, 0]) == .start)
        #expect(decode([3, 0, 0, 0]) == .stop)
        #expect(decode([4, 0, 0, 0]) == .open)
        #expect(decode([5, 0, 0, 0]) == .close)
        #expect(decode([9, 0, 0, 0, 0x2A, 0, 0, 0, 0x05, 0]) == .getReport(id: 42, reportNumber: 5, reportType: 0))
        #expect(decode([13, 0, 0, 0, 1, 1, 0, 0, 0x80, 0, 3, 0, 1, 2, 3]) == .setReport(id: 257, reportNumber: 0x80, reportType: 0))
        var output = [UInt8](repeating: 0, count: UHIDMessage.eventSize)
        output[0] = 6
        output[4] = 0x02
        output[4 + 4096] = 63
        output[4 + 4098] = 1
        #expect(decode(output) == .output(reportID: 2, size: 63))
    }

    @Test func shortOrStrangeMessagesDecodeAsUnknownOrZeroFilled() {
        #expect(decode([]) == .unknown(type: 0, length: 0))
        #expect(decode([9, 0]) == .unknown(type: 0, length: 2))
        #expect(decode([99, 0, 0, 0, 1]) == .unknown(type: 99, length: 5))
        #expect(decode([9, 0, 0, 0, 7]) == .getReport(id: 7, reportNumber: 0, reportType: 0))
        #expect(decode([6, 0, 0, 0, 0x02]) == .output(reportID: 2, size: 0))
        var oversized = [UInt8](repeating: 0, count: UHIDMessage.eventSize)
        oversized[0] = 6
        oversized[4 + 4096] = 0xFF
        oversized[4 + 4097] = 0xFF
        #expect(decode(oversized) == .output(reportID: 0, size: 4096))
    }
}
