import Bridge
import DaydreamProtocol
import EventVocabulary
import Mapping
import Testing
import Timebase

/// The session hands its output the controller's own state (for the DualSense's motion,
/// touchpad and battery): every packet's input after that packet's events, and every battery
/// reading.
@MainActor
@Suite("Session: the controller's state reaches the output")
struct SessionControllerStateTests {
    private final class StateOutput: BridgeOutput {
        enum Call: Equatable {
            case events(Int)
            case input(ControllerInput, MonotonicTime)
            case battery(Int)
        }
        var calls: [Call] = []
        func send(_ events: UnsafeBufferPointer<OutputEvent>, at time: MonotonicTime) { calls.append(.events(events.count)) }
        func controllerInput(_ input: ControllerInput, at time: MonotonicTime) { calls.append(.input(input, time)) }
        func batteryChanged(percent: Int) { calls.append(.battery(percent)) }
    }

    @Test func everyPacketsInputFollowsItsEventsAndBatteryReadingsPassThrough() {
        let configuration = MappingConfiguration(profiles: [Profile(name: "p", click: .plain(.keys([EventCode.btnSouth])))])
        let output = StateOutput()
        let session = ControllerSession(
            address: "EC:12:34:56:78:9A", configuration: configuration, output: output,
            scheduler: ManualScheduler(now: .zero))
        let pressed = DaydreamPacket(gyro: RawVector(40, 0, 0), touchX: 10, touchY: 20, buttons: .click)
        session.receive(pressed, at: .milliseconds(5))
        session.receive(DaydreamPacket(buttons: .click), at: .milliseconds(20))
        session.batteryChanged(percent: 57, at: .milliseconds(30))
        #expect(output.calls.count == 4)
        guard output.calls.count == 4 else { return }
        #expect(output.calls[0] == .events(2), "BTN_SOUTH down and its SYN_REPORT")
        #expect(output.calls[1] == .input(ControllerInput(packet: pressed), .milliseconds(5)))
        #expect(output.calls[2] == .input(ControllerInput(packet: DaydreamPacket(buttons: .click)), .milliseconds(20)),
                "a packet with no change still hands its input on")
        #expect(output.calls[3] == .battery(57))
    }
}
