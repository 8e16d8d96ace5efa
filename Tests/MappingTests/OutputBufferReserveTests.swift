import EventVocabulary
import Testing

/// `reserve(n)` makes room for n events at once; `appendReserved` then stores into it as
/// `append` does, the device's `SYN_REPORT` included.
@Suite("Output buffer reserve")
struct OutputBufferReserveTests {
    @Test func reservedRoomHoldsEveryEventInOrderAfterThoseBefore() {
        var buffer = OutputBuffer(capacity: 2)
        buffer.append(.keyboard, type: EventType.key, code: 1, value: 1)
        buffer.reserve(7)
        let capacity = buffer.capacity
        #expect(capacity - buffer.count >= 7)
        for code in 0..<7 { buffer.appendReserved(.motion, type: EventType.abs, code: UInt16(code), value: Int32(code)) }
        buffer.endFrame()
        let written = buffer.events
        #expect(written.map(\.code) == [1] + (0..<7).map { UInt16($0) } + [EventCode.synReport, EventCode.synReport])
        #expect(written.filter(\.isSynReport).map(\.device) == [.keyboard, .motion].sorted { $0.rawValue < $1.rawValue })
    }

    @Test func reservingWithRoomLeftKeepsTheCapacity() {
        var buffer = OutputBuffer(capacity: 16)
        buffer.reserve(7)
        let capacity = buffer.capacity
        #expect(capacity == 16)
    }
}
