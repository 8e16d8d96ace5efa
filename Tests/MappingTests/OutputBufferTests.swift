@testable import Mapping
import EventVocabulary
import Testing

@Suite("Output buffer")
struct OutputBufferTests {
    /// Any number of events up to the capacity: `removeAll` empties the buffer, keeps its
    /// capacity, and forgets which devices had changed.
    @Test func removeAllEmptiesAnyNumberOfEventsAndKeepsTheCapacity() {
        var buffer = OutputBuffer(capacity: 16)
        for count in 0...16 {
            for index in 0..<count {
                buffer.append(.keyboard, type: EventType.key, code: UInt16(index + 1), value: 1)
            }
            let written = buffer.events
            #expect(written.count == count)
            #expect(written.map(\.code) == (0..<count).map { UInt16($0 + 1) })
            buffer.removeAll()
            let (emptied, capacity) = (buffer.isEmpty, buffer.capacity)
            #expect(emptied, "\(count) events")
            #expect(capacity == 16, "\(count) events")
            buffer.endFrame()
            let stillEmpty = buffer.isEmpty
            #expect(stillEmpty, "no SYN_REPORT for a device changed before removeAll, \(count) events")
        }
    }

    /// Past its capacity the buffer grows and keeps every event, in order.
    @Test func appendingPastTheCapacityKeepsEveryEvent() {
        var buffer = OutputBuffer(capacity: 2)
        for code in 1...9 {
            buffer.append(.keyboard, type: EventType.key, code: UInt16(code), value: 1)
        }
        buffer.endFrame()
        let (written, capacity) = (buffer.events, buffer.capacity)
        #expect(written.map(\.code) == Array(1...9).map(UInt16.init) + [EventCode.synReport])
        #expect(capacity == 16)
        buffer.withEvents { events in
            #expect(events.count == 10)
            #expect(events.last?.isSynReport == true)
        }
    }

    /// A frame's `SYN_REPORT`s come in device order, whatever order the devices changed in.
    @Test func endFrameReportsTheChangedDevicesInDeviceOrder() {
        var buffer = OutputBuffer()
        buffer.append(.pointer, type: EventType.abs, code: EventCode.absX, value: 1)
        buffer.append(.gamepad, type: EventType.abs, code: EventCode.absX, value: 1)
        buffer.append(.motion, type: EventType.abs, code: EventCode.absX, value: 1)
        buffer.append(.gamepad, type: EventType.abs, code: EventCode.absY, value: 1)
        buffer.endFrame()
        #expect(buffer.events.filter(\.isSynReport).map(\.device) == [.gamepad, .motion, .pointer])
        #expect(buffer.events.count == 7)
        buffer.endFrame()
        #expect(buffer.events.count == 7, "an empty frame adds nothing")
    }
}
