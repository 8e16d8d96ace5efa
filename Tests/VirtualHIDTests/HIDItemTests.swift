import Testing

@testable import VirtualHID

@Suite struct HIDItemTests {
    @Test func itemsTakeTheFewestBytesThatHoldThem() {
        #expect(HIDItem.usagePage(0x01).bytes == [0x05, 0x01])
        #expect(HIDItem.usagePage(0xFF00).bytes == [0x06, 0x00, 0xFF])
        #expect(HIDItem.usage(0x39).bytes == [0x09, 0x39])
        #expect(HIDItem.reportID(0x20).bytes == [0x85, 0x20])
        #expect(HIDItem.reportCount(63).bytes == [0x95, 0x3F])
        #expect(HIDItem.reportSize(16).bytes == [0x75, 0x10])
        #expect(HIDItem.unit(0).bytes == [0x64])
        #expect(HIDItem.unit(0x14).bytes == [0x65, 0x14])
    }

    @Test func extentsAreSigned() {
        #expect(HIDItem.logicalMinimum(0).bytes == [0x15, 0x00])
        #expect(HIDItem.logicalMaximum(255).bytes == [0x26, 0xFF, 0x00])
        #expect(HIDItem.logicalMaximum(127).bytes == [0x25, 0x7F])
        #expect(HIDItem.logicalMinimum(-32768).bytes == [0x16, 0x00, 0x80])
        #expect(HIDItem.physicalMaximum(315).bytes == [0x46, 0x3B, 0x01])
        #expect(HIDItem.logicalMinimum(Int32.min).bytes == [0x17, 0x00, 0x00, 0x00, 0x80])
        #expect(HIDItem.logicalMaximum(Int32.max).bytes == [0x27, 0xFF, 0xFF, 0xFF, 0x7F])
    }

    @Test func mainItems() {
        #expect(HIDItem.applicationCollection.bytes == [0xA1, 0x01])
        #expect(HIDItem.endCollection.bytes == [0xC0])
        #expect(HIDItem.input().bytes == [0x81, 0x02])
        #expect(HIDItem.input(nullState: true).bytes == [0x81, 0x42])
        #expect(HIDItem.output.bytes == [0x91, 0x02])
        #expect(HIDItem.feature.bytes == [0xB1, 0x02])
    }
}
