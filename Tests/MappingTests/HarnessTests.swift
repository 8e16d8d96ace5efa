import EventVocabulary
import Mapping
import Testing

/// The timeline harness itself must catch what it is there to catch.
@Suite("Timeline harness")
struct HarnessTests {
    private func key(_ code: UInt16, _ value: Int32, on device: OutputDeviceKind = .gamepad) -> OutputEvent {
        OutputEvent(device: device, type: EventType.key, code: code, value: value)
    }

    private func syn(_ device: OutputDeviceKind = .gamepad) -> OutputEvent {
        OutputEvent(device: device, type: EventType.syn, code: EventCode.synReport, value: 0)
    }

    @Test func deviceModelFlagsNonsense() {
        var model = DeviceModel()
        #expect(model.check([key(EventCode.btnSouth, 1), syn()], afterReleaseAll: false).isEmpty)
        #expect(model.check([key(EventCode.btnSouth, 1), syn()], afterReleaseAll: false) == ["BTN_SOUTH pressed while down"])
        #expect(model.check([key(EventCode.btnEast, 0), syn()], afterReleaseAll: false) == ["BTN_EAST released while up"])
        #expect(model.check([key(EventCode.btnLeft, 1, on: .gamepad)], afterReleaseAll: false)
            == ["BTN_LEFT sent to the gamepad", "frame left open on gamepad"])
        #expect(model.check([syn(.mouse)], afterReleaseAll: true)
            == ["empty frame on mouse", "BTN_LEFT still down", "BTN_SOUTH still down"])
    }

    @Test func diffMarksMissingAndExtraLines() {
        let diff = lineDiff(expected: ["a", "b", "c"], actual: ["a", "c", "d"])
        #expect(diff == "  => a\n- => b\n  => c\n+ => d")
    }

    @Test func badTimelinesAreRejectedWithTheirLine() {
        #expect(throws: TimelineError.self) { try Timeline(text: "0ms press click\n[profile.p]\n") }
        let cases = [
            ("[profile.p]\nnose = \"BTN_SOUTH\"\n", 2, "unknown key 'nose'"),
            ("[profile.p]\nclick = \"BTN_SOTH\"\n", 2, "did you mean BTN_SOUTH?"),
            ("[profile.p]\n\n10ms wiggle\n", 3, "unknown command wiggle"),
        ]
        for (text, line, message) in cases {
            do {
                _ = try Timeline(text: text)
                Issue.record("accepted: \(text)")
            } catch let error as TimelineError {
                #expect(error.line == line)
                #expect(error.message.contains(message), "\(error)")
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }

    @Test func eventsOutsideTheCapabilitiesFailTheTimeline() throws {
        let text = """
            [profile.p]
            click = "BTN_SOUTH"
            0ms press click
            => 0ms gamepad BTN_SOUTH 1
            => 0ms gamepad SYN_REPORT
            """
        let timeline = try Timeline(text: text)
        #expect(TimelineRunner.run(timeline) == timeline.expected)
        // The same events, against devices that lack the code.
        var capabilities = timeline.configuration.capabilities
        capabilities[.gamepad]?.keys.removeAll { $0 == EventCode.btnSouth }
        let actual = TimelineRunner.run(timeline, capabilities: capabilities)
        #expect(actual != timeline.expected)
        #expect(actual.first == "0ms !! BTN_SOUTH is not in the gamepad's capabilities")
    }

    @Test func axisValuesOutsideTheirRangeFailTheTimeline() throws {
        let text = """
            [profile.p]
            touchpad = { mode = "stick" }
            0ms touch 1 0.5
            => 0ms gamepad ABS_X 32767
            => 0ms gamepad SYN_REPORT
            """
        let timeline = try Timeline(text: text)
        #expect(TimelineRunner.run(timeline) == timeline.expected)
        var capabilities = timeline.configuration.capabilities
        capabilities[.gamepad]?.absoluteAxes.removeAll { $0.code == EventCode.absX }
        capabilities[.gamepad]?.insertAbsolute(EventCode.absX, AbsInfo(minimum: -255, maximum: 255))
        let actual = TimelineRunner.run(timeline, capabilities: capabilities)
        #expect(actual.first == "0ms !! ABS_X 32767 outside the gamepad's -255...255")
    }
}
