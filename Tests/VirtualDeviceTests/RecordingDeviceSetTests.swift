import EventVocabulary
import Mapping
import Testing
@testable import VirtualDevice

@Suite("Device set in memory")
struct RecordingDeviceSetTests {
    @Test func recordsOnlyTheDevicesTheCapabilitiesNeed() throws {
        let sink = try VirtualDeviceSet.recording(capabilities: Capabilities([.mouse: Fixture.mouse]))
        #expect(sink.kinds == [.mouse])
        #expect(throws: VirtualDeviceError.noSuchDevice("gamepad")) {
            try sink.send([Fixture.event(.gamepad, Code.evKey, Code.btnSouth, 1), Fixture.syn(.gamepad)])
        }
        #expect(sink.events.isEmpty)
    }

    @Test func undeclaredCodeIsSkippedTheRestKept() throws {
        let sink = try VirtualDeviceSet.recording(capabilities: Fixture.all)
        let events = [
            Fixture.event(.gamepad, Code.evKey, Code.btnSouth, 1),
            Fixture.event(.gamepad, Code.evKey, Code.btnDpadUp, 1),
            Fixture.syn(.gamepad),
        ]
        #expect(throws: VirtualDeviceError.undeclaredCode(device: "Daydream Controller Gamepad", code: "BTN_DPAD_UP")) {
            try sink.send(events)
        }
        #expect(sink.events == [events[0], events[2]])
        #expect(sink.state(.gamepad)?.isDown(Code.btnSouth) == true)
    }

    @Test func releaseAllLiftsKeysAndCentresAxesPerDevice() throws {
        let sink = try VirtualDeviceSet.recording(capabilities: Fixture.all)
        try sink.send([
            Fixture.event(.gamepad, Code.evKey, Code.btnEast, 1),
            Fixture.event(.gamepad, Code.evAbs, Code.absY, 20000),
            Fixture.syn(.gamepad),
            Fixture.event(.keyboard, Code.evKey, Code.keyLeftCtrl, 1),
            Fixture.event(.keyboard, Code.evKey, Code.keyC, 1),
            Fixture.syn(.keyboard),
            Fixture.event(.mouse, Code.evRel, Code.relX, 4),
            Fixture.syn(.mouse),
        ])
        sink.removeAll()
        try sink.releaseAll()
        #expect(sink.lines == [
            "gamepad EV_KEY BTN_EAST 0",
            "gamepad EV_ABS ABS_Y 0",
            "gamepad EV_SYN SYN_REPORT 0",
            "keyboard EV_KEY KEY_LEFTCTRL 0",
            "keyboard EV_KEY KEY_C 0",
            "keyboard EV_SYN SYN_REPORT 0",
        ])
        sink.removeAll()
        try sink.releaseAll()
        #expect(sink.events.isEmpty, "nothing to release twice")
    }

    @Test func sinkTakesAnOutputBuffer() throws {
        let sink = try VirtualDeviceSet.recording(capabilities: Fixture.all)
        let buffer = OutputBuffer()
        try sink.send(buffer, at: .zero)
        #expect(sink.events.isEmpty)
    }

    @Test("any sink says what its devices are, with no need to know its type")
    func summaryThroughTheProtocol() throws {
        let sinks: [any OutputSink] = [
            try VirtualDeviceSet.recording(capabilities: Fixture.all),
            try VirtualDeviceSet(capabilities: Capabilities([.mouse: Fixture.mouse]), fileDescriptor: -1),
        ]
        #expect(sinks[0].summary == [
            "gamepad: \"Daydream Controller Gamepad\" in memory",
            "mouse: \"Daydream Controller Mouse\" in memory",
            "keyboard: \"Daydream Controller Keyboard\" in memory",
        ])
        #expect(sinks[1].summary == ["mouse: \"Daydream Controller Mouse\" as raw input_event frames on a file descriptor"])
    }
}
