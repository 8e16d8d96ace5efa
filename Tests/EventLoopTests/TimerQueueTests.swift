import Testing
import Timebase
@testable import EventLoop

/// `TimerQueue`: the earliest live deadline, after cancels of the top it already reported.
@Suite struct TimerQueueTests {
    @MainActor @Test func earliestSkipsATopCancelledAfterItWasReported() {
        var queue = TimerQueue()
        var fired: [String] = []
        let first = queue.insert(.milliseconds(10)) { fired.append("first") }
        let second = queue.insert(.milliseconds(20)) { fired.append("second") }
        #expect(queue.earliest() == .milliseconds(10))
        #expect(queue.earliest() == .milliseconds(10), "asked again, the same")
        queue.cancel(first)
        #expect(queue.earliest() == .milliseconds(20))
        _ = queue.insert(.milliseconds(5)) { fired.append("third") }
        #expect(queue.earliest() == .milliseconds(5), "an earlier insert becomes the top")
        queue.popDue(at: .milliseconds(5))?()
        #expect(fired == ["third"])
        #expect(queue.earliest() == .milliseconds(20))
        queue.cancel(second)
        #expect(queue.earliest() == nil)
        #expect(queue.popDue(at: .milliseconds(30)) == nil)
    }
}
