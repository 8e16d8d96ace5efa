import Testing

@testable import VirtualHID

@Suite struct DualSenseReportDescriptorTests {
    /// Bits declared per (main item, report id), walking the items as the HID core does.
    private static func declaredBits() -> [String: Int] {
        var bits: [String: Int] = [:]
        var reportID: UInt8 = 0
        var size = 0
        var count = 0
        func value(_ item: HIDItem) -> Int {
            item.data.enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        }
        for item in DualSenseReportDescriptor.items {
            switch (item.kind, item.tag) {
            case (.global, 0x8): reportID = UInt8(value(item))
            case (.global, 0x7): size = value(item)
            case (.global, 0x9): count = value(item)
            case (.main, 0x8): bits["input \(reportID)", default: 0] += size * count
            case (.main, 0x9): bits["output \(reportID)", default: 0] += size * count
            case (.main, 0xB): bits["feature \(reportID)", default: 0] += size * count
            default: break
            }
        }
        return bits
    }

    @Test func everyReportHasTheLengthTheDriverChecks() {
        let bits = Self.declaredBits()
        #expect(bits["input 49"] == (DualSenseReportID.state.length - 1) * 8)
        #expect(bits["output 49"] == (DualSenseReportID.state.length - 1) * 8)
        for feature in DualSenseReportID.features {
            #expect(bits["feature \(feature.rawValue)"] == (feature.length - 1) * 8, "report \(feature)")
        }
        #expect(bits.count == 5)
    }

    @Test func isOneGamepadApplicationCollection() {
        let bytes = DualSenseReportDescriptor.bytes
        #expect(Array(bytes.prefix(6)) == [0x05, 0x01, 0x09, 0x05, 0xA1, 0x01])
        #expect(bytes.last == 0xC0)
        #expect(bytes.filter { $0 == 0xA1 }.count >= 1)
        #expect(bytes.count < UHIDMessage.maximumDescriptorSize)
    }
}
