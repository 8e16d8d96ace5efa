import DaydreamProtocol
import EventVocabulary
import Mapping
import Testing
import Timebase

/// The tap-time floor counts from when the caller wrote a press, when that was after the time
/// the engine was given: the device, where a game reads it, holds the press a tap time.
@Suite("Tap time counted from the write")
struct WrittenTapFloorTests {
    private let tapTime = MappingConfiguration.defaultTapTime
    private let profile = Profile(
        name: "p", click: .plain(.keys([EventCode.btnSouth])),
        home: .tapHold(tap: .keys([EventCode.btnMode]), hold: .keys([EventCode.btnStart]), holdTime: nil))

    private func keys(_ buffer: borrowing OutputBuffer) -> [[Int32]] {
        buffer.events.filter { !$0.isSynReport }.map { [Int32($0.code), $0.value] }
    }

    /// Read at 0, written at 80 ms, let go at 100 ms: released a tap time after the write, not after the read.
    @Test func aPressWrittenLateStaysDownATapTimeFromTheWrite() {
        var engine = MappingEngine(configuration: MappingConfiguration(profiles: [profile]))
        var buffer = OutputBuffer()
        engine.update(ControllerInput(buttons: .click), at: .zero, into: &buffer)
        #expect(engine.hasStartsAwaitingWrite == true)
        engine.startsWritten(at: .milliseconds(80))
        #expect(engine.hasStartsAwaitingWrite == false)
        buffer.removeAll()
        engine.update(ControllerInput(), at: .milliseconds(100), into: &buffer)
        #expect(keys(buffer).isEmpty)
        #expect(engine.nextDeadline == .milliseconds(80) + tapTime)
        engine.advance(to: MonotonicTime(nanoseconds: 199_999_999), into: &buffer)
        #expect(keys(buffer).isEmpty)
        engine.advance(to: .milliseconds(80) + tapTime, into: &buffer)
        #expect(keys(buffer) == [[Int32(EventCode.btnSouth), 0]])
    }

    /// Written at the time it was read: the floor stays a tap time from the read.
    @Test func aPressWrittenAtOnceKeepsItsFloor() {
        var engine = MappingEngine(configuration: MappingConfiguration(profiles: [profile]))
        var buffer = OutputBuffer()
        engine.update(ControllerInput(buttons: .click), at: .milliseconds(5), into: &buffer)
        engine.startsWritten(at: .milliseconds(5))
        engine.update(ControllerInput(), at: .milliseconds(50), into: &buffer)
        #expect(engine.nextDeadline == .milliseconds(5) + tapTime)
    }

    /// A tap pressed at the release and written 30 ms later goes up a tap time after that write.
    @Test func aTapWrittenLateIsReleasedATapTimeAfterTheWrite() {
        var engine = MappingEngine(configuration: MappingConfiguration(profiles: [profile]))
        var buffer = OutputBuffer()
        engine.update(ControllerInput(buttons: .home), at: .zero, into: &buffer)
        engine.startsWritten(at: .zero)
        engine.update(ControllerInput(), at: .milliseconds(300), into: &buffer)
        #expect(keys(buffer) == [[Int32(EventCode.btnMode), 1]])
        engine.startsWritten(at: .milliseconds(330))
        #expect(engine.nextDeadline == .milliseconds(330) + tapTime)
    }

    /// A hold whose timer fired 90 ms late, and whose button is let go at once: down a tap time from its write.
    @Test func aHoldStartedByALateTimerStaysDownATapTime() {
        var engine = MappingEngine(configuration: MappingConfiguration(profiles: [profile]))
        var buffer = OutputBuffer()
        engine.update(ControllerInput(buttons: .home), at: .zero, into: &buffer)
        engine.startsWritten(at: .zero)
        engine.advance(to: .milliseconds(1090), into: &buffer)
        #expect(keys(buffer) == [[Int32(EventCode.btnStart), 1]])
        engine.startsWritten(at: .milliseconds(1090))
        buffer.removeAll()
        engine.update(ControllerInput(), at: .milliseconds(1100), into: &buffer)
        #expect(keys(buffer).isEmpty)
        #expect(engine.nextDeadline == .milliseconds(1090) + tapTime)
    }

    /// Everything released with a start unwritten: nothing is left waiting for a write.
    @Test func releaseAllForgetsStartsAwaitingTheirWrite() {
        var engine = MappingEngine(configuration: MappingConfiguration(profiles: [profile]))
        var buffer = OutputBuffer()
        engine.update(ControllerInput(buttons: .click), at: .zero, into: &buffer)
        engine.releaseAll(into: &buffer)
        #expect(engine.hasStartsAwaitingWrite == false)
        engine.startsWritten(at: .seconds(5))
        #expect(engine.nextDeadline == nil)
    }
}
