import DaydreamProtocol
import EventVocabulary
import Mapping
import Testing
import Timebase

/// Outputs keyed by device: a setting names the device its codes go to, and the engine keeps
/// each device's state apart, even for the same code.
@Suite("Outputs by device")
struct OutputDeviceTests {
    @Test("each setting's default device is the one its codes route to")
    func defaultsRouteAsBefore() {
        #expect(StickOptions().device == .gamepad)
        #expect(DpadOptions().device == .gamepad)
        #expect(TiltSettings().device == .gamepad)
        #expect(TrackpadOptions().device == .mouse)
        #expect(ScrollOptions().device == .mouse)
        #expect(WheelOptions().device == .mouse)
        #expect(AirMouseSettings().device == .mouse)
        for kind in OutputDeviceKind.allCases {
            #expect(OutputDeviceKind(name: kind.description) == kind)
        }
        #expect(OutputDeviceKind(name: "joystick") == nil)
        #expect(OutputDeviceKind.kinds(accepting: [(EventType.rel, EventCode.relX)]) == [.mouse])
        #expect(OutputDeviceKind.kinds(accepting: [(EventType.abs, EventCode.absRx)]) == [.gamepad])
        #expect(OutputDeviceKind.kinds(accepting: [(EventType.key, 30), (EventType.key, EventCode.btnSouth)]).isEmpty)
    }

    @Test("the capabilities put a setting's codes on the device it names")
    func capabilitiesFollowTheNamedDevice() {
        var tilt = TiltSettings()
        tilt.device = .mouse
        var trackpad = TrackpadOptions()
        trackpad.device = .keyboard
        let profile = Profile(name: "p", touchpad: .trackpad(trackpad), tilt: tilt)
        let capabilities = profile.capabilities
        #expect(capabilities[.mouse]?.absInfo(EventCode.absX) == .stick)
        #expect(capabilities[.keyboard]?.relativeAxes == [EventCode.relX, EventCode.relY])
        #expect(capabilities[.gamepad] == nil)
    }

    @Test("one code on two devices: each device has its own value, emitted and centred on its own")
    func sameAxisOnTwoDevices() {
        var tilt = TiltSettings()
        tilt.device = .mouse
        let profile = Profile(name: "p", touchpad: .stick(StickOptions()), tilt: tilt)
        var engine = MappingEngine(configuration: MappingConfiguration(profiles: [profile]))
        var buffer = OutputBuffer()
        engine.update(ControllerInput(), at: .zero, into: &buffer)
        #expect(buffer.isEmpty == true, "at rest and the tilt's zero just taken: nothing moves")

        let turned = Quaternion(rotationVector: Vector3(x: 0.4, y: 0.4, z: 0.4))
        engine.update(ControllerInput(touch: TouchPoint(x: 1, y: 0.5), orientation: turned), at: .milliseconds(15), into: &buffer)
        let axisX = buffer.events.filter { $0.type == EventType.abs && $0.code == EventCode.absX }
        #expect(axisX.map(\.device) == [.gamepad, .mouse])
        #expect(axisX.allSatisfy { $0.value != 0 })
        #expect(buffer.events.filter(\.isSynReport).map(\.device) == [.gamepad, .mouse])

        buffer.removeAll()
        engine.releaseAll(into: &buffer)
        let centred = buffer.events.filter { $0.type == EventType.abs && $0.code == EventCode.absX }
        #expect(centred.map(\.device) == [.gamepad, .mouse])
        #expect(centred.allSatisfy { $0.value == 0 })
        #expect(engine.isIdle == true)
    }
}
