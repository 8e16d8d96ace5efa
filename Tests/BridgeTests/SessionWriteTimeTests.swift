import Bridge
import DaydreamProtocol
import EventVocabulary
import Mapping
import Testing
import Timebase
import VirtualDevice

/// The session tells the engine when it wrote a press, by its scheduler's clock after the write:
/// a packet read at 0 but written at 80 ms (the loop held up) is down a tap time from 80 ms.
@MainActor
@Suite("Session: tap time from the write")
struct SessionWriteTimeTests {
    private final class TimedEvents: @MainActor OutputSink {
        var sent: [(time: MonotonicTime, events: [OutputEvent])] = []
        var label = ""
        var summary: [String] { [] }
        func releaseAll(at time: MonotonicTime) {}
        func send(_ events: UnsafeBufferPointer<OutputEvent>, at time: MonotonicTime) { sent.append((time, Array(events))) }
    }

    @Test func aPressWrittenLateIsHeldATapTimeFromItsWrite() {
        let configuration = MappingConfiguration(profiles: [Profile(name: "p", click: .plain(.keys([EventCode.btnSouth])))])
        let scheduler = ManualScheduler(now: .milliseconds(80))
        let output = TimedEvents()
        let session = ControllerSession(address: nil, configuration: configuration, output: output, scheduler: scheduler)
        session.receive(DaydreamPacket(buttons: .click), at: .zero)
        session.receive(DaydreamPacket(), at: .milliseconds(100))
        let tapTime = MappingConfiguration.defaultTapTime
        #expect(session.nextDeadline == .milliseconds(80) + tapTime)
        #expect(scheduler.nextDeadline == .milliseconds(80) + tapTime)
        scheduler.advance(to: .milliseconds(80) + tapTime)
        let releases = output.sent.filter { $0.events.contains { $0.code == EventCode.btnSouth && $0.value == 0 } }
        #expect(releases.map(\.time) == [.milliseconds(80) + tapTime])
    }
}
