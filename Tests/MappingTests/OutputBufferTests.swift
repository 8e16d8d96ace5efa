@testable import Mapping
import Testing

@Suite("Output buffer")
struct OutputBufferTests {
    /// Few events are popped one by one, many go at once: either way the buffer is empty, keeps
    /// its capacity, and forgets which devices had changed.
    @Test func removeAllEmptiesAnyNumberOfEventsAndKeepsTheCapacity() {
        var buffer = OutputBuffer(capacity: 64)
        let capacity = buffer.events.capacity
        for count in 0...(OutputBuffer.eventsPoppedOneByOne * 3) {
            for index in 0..<count {
                buffer.append(.keyboard, type: EventType.key, code: UInt16(index + 1), value: 1)
            }
            #expect(buffer.events.count == count)
            buffer.removeAll()
            #expect(buffer.isEmpty, "\(count) events")
            #expect(buffer.events.capacity == capacity, "\(count) events")
            buffer.endFrame()
            #expect(buffer.isEmpty, "no SYN_REPORT for a device changed before removeAll, \(count) events")
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
