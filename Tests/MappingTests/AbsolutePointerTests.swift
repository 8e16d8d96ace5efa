import DaydreamProtocol
import EventVocabulary
import Testing
import Timebase
@testable import Mapping

/// The absolute pointer's mapping from orientation to the screen, its filters in the engine,
/// and when its device exists.
@Suite("Absolute pointer")
struct AbsolutePointerTests {
    static func orientation(yawDegrees: Double, pitchDegrees: Double = 0) -> Quaternion {
        let radians = Double.pi / 180
        let yaw = Quaternion(rotationVector: Vector3(x: 0, y: yawDegrees * radians, z: 0))
        let pitch = Quaternion(rotationVector: Vector3(x: pitchDegrees * radians, y: 0, z: 0))
        return yaw * pitch
    }

    @Test func theDefaultsAreTheFiltersMeasuredOnes() {
        #expect(PointerSettings().filter == OneEuroFilterTests.pointerDefaults)
    }

    @Test func theFieldOfViewSpansTheAxisAndItsEdgesClamp() {
        #expect(AbsolutePointer.coordinate(0, fieldOfView: 40) == AbsolutePointer.axis.value)
        #expect(AbsolutePointer.coordinate(-20, fieldOfView: 40) == 0)
        #expect(AbsolutePointer.coordinate(20, fieldOfView: 40) == 32767)
        #expect(AbsolutePointer.coordinate(10, fieldOfView: 40) == 24575)
        #expect(AbsolutePointer.coordinate(-90, fieldOfView: 40) == 0)
        #expect(AbsolutePointer.coordinate(90, fieldOfView: 40) == 32767)
        #expect(AbsolutePointer.coordinate(.nan, fieldOfView: 40) == AbsolutePointer.axis.value)
    }

    /// Turning right (negative about the vertical y axis) is +x; tipping the tip down (negative
    /// about x) is +y, as the screen's coordinates grow; both relative to the zero.
    @Test func turningRightAndTippingDownGrowTheCoordinates() {
        let zero = Self.orientation(yawDegrees: 30)
        let right = AbsolutePointer.degrees(Self.orientation(yawDegrees: 20), zero: zero)
        #expect(abs(right.x - 10) < 1e-9)
        #expect(abs(right.y) < 1e-9)
        let down = AbsolutePointer.degrees(Self.orientation(yawDegrees: 30, pitchDegrees: -5), zero: zero)
        #expect(abs(down.x) < 1e-9)
        #expect(abs(down.y - 5) < 1e-9)
    }

    @Test func theDeviceExistsOnlyWhenAProfileAsksForIt() {
        let plain = MappingConfiguration(profiles: [Profile(name: "a", click: .plain(.keys([EventCode.btnLeft])))])
        #expect(plain.capabilities[.pointer] == nil)
        let asked = MappingConfiguration(profiles: [
            Profile(name: "a", click: .plain(.keys([EventCode.btnLeft]))),
            Profile(name: "b", pointer: PointerSettings()),
        ])
        #expect(asked.capabilities[.pointer] == AbsolutePointer.capabilities)
        #expect(asked.capabilities[.mouse] == plain.capabilities[.mouse], "the mouse is the same with or without it")
        #expect(asked.capabilities.deviceKinds == [.mouse, .pointer])
    }

    @Test func noSettingMayNameThePointerDevice() {
        #expect(OutputDeviceKind(name: "pointer") == .pointer)
        #expect(!OutputDeviceKind.pointer.takesSettings)
        #expect(OutputDeviceKind.kinds(accepting: [(EventType.key, EventCode.btnLeft)]) == [.mouse])
        #expect(OutputDeviceKind.pointer.accepts(type: EventType.abs, code: EventCode.absY))
        #expect(OutputDeviceKind.pointer.accepts(type: EventType.key, code: EventCode.btnRight))
        #expect(!OutputDeviceKind.pointer.accepts(type: EventType.rel, code: EventCode.relX))
        #expect(!OutputDeviceKind.pointer.accepts(type: EventType.abs, code: EventCode.absZ))
        #expect(!OutputDeviceKind.pointer.accepts(type: EventType.key, code: EventCode.btnTouch))
        #expect(OutputDeviceKind.routeKey(EventCode.btnLeft) == .mouse, "routing is unchanged")
    }

    /// A sweep to the right at 37.5 degrees a second (0.6 degree a packet, 16 ms apart on the
    /// controller's clock while the packets arrive bunched in threes) through the engine: the
    /// written x trails the sweep by under one degree (819 units; about 756 by the filter's own figures), settles exactly on the
    /// last position once held, and y, never moved, is never written.
    @Test func theEngineFollowsASweepOnThePacketClock() {
        let settings = PointerSettings()
        let configuration = MappingConfiguration(profiles: [Profile(name: "a", pointer: settings)])
        var engine = MappingEngine(configuration: configuration)
        var buffer = OutputBuffer()
        var written = AbsolutePointer.axis.value
        var worst: Int32 = 0
        var wroteY = false
        for index in 0...180 {
            let degrees = Double(min(index, 30)) * 0.6
            var input = ControllerInput(orientation: Self.orientation(yawDegrees: -degrees))
            input.controllerTime = ControllerStamp(milliseconds: UInt16(index * 16 % 512))
            let arrival = MonotonicTime.zero + .milliseconds(Int64(index / 3 * 48))
            buffer.removeAll()
            engine.update(input, at: arrival, into: &buffer)
            for event in buffer.events where event.device == .pointer {
                guard event.type == EventType.abs else { continue }
                if event.code == EventCode.absX { written = event.value }
                if event.code == EventCode.absY { wroteY = true }
            }
            if index <= 30 {
                worst = max(worst, AbsolutePointer.coordinate(degrees, fieldOfView: settings.fieldOfViewX) - written)
            }
        }
        #expect(worst > 0 && worst < 819, "worst lag \(worst) units")
        #expect(written == AbsolutePointer.coordinate(18, fieldOfView: settings.fieldOfViewX))
        #expect(!wroteY)
    }

    /// The x written by one packet turned `yawDegrees` right, stamped `stamp` milliseconds.
    static func writtenX(_ engine: inout MappingEngine, yawDegrees: Double, stamp: Int,
                         buttons: DaydreamButtons = []) -> Int32? {
        var input = ControllerInput(buttons: buttons, orientation: orientation(yawDegrees: -yawDegrees))
        input.controllerTime = ControllerStamp(milliseconds: UInt16(stamp % 512))
        var buffer = OutputBuffer()
        engine.update(input, at: MonotonicTime.zero + .milliseconds(Int64(stamp)), into: &buffer)
        return buffer.events.last { $0.device == .pointer && $0.type == EventType.abs && $0.code == EventCode.absX }?.value
    }

    /// A reload keeps the filters running when the pointer's settings are unchanged (the next
    /// packet is still smoothed) and restarts them when they change (the next packet passes
    /// unfiltered, exactly on its position); a recentre restarts them too.
    @Test func theFiltersRestartOnlyWhenTheZeroOrTheSettingsChange() throws {
        let settings = PointerSettings()
        var narrower = settings
        narrower.fieldOfViewY = 20
        func configuration(_ pointer: PointerSettings) -> MappingConfiguration {
            MappingConfiguration(profiles: [Profile(name: "a", home: .plain(.recenter), pointer: pointer)])
        }
        let target = AbsolutePointer.coordinate(10, fieldOfView: settings.fieldOfViewX)
        var engine = MappingEngine(configuration: configuration(settings))
        var buffer = OutputBuffer()
        #expect(Self.writtenX(&engine, yawDegrees: 0, stamp: 0) == nil, "the zero, at the centre")
        let first = try #require(Self.writtenX(&engine, yawDegrees: 10, stamp: 16))
        #expect(first < target, "smoothed: \(first)")

        engine.reload(configuration(settings), at: MonotonicTime.zero + .milliseconds(20), into: &buffer)
        let kept = try #require(Self.writtenX(&engine, yawDegrees: 10, stamp: 32))
        #expect(kept > first && kept < target, "the same filters, further on: \(kept)")

        engine.reload(configuration(narrower), at: MonotonicTime.zero + .milliseconds(40), into: &buffer)
        #expect(Self.writtenX(&engine, yawDegrees: 10, stamp: 48) == target, "new settings, new filters")

        let smoothed = try #require(Self.writtenX(&engine, yawDegrees: 15, stamp: 64))
        #expect(smoothed < AbsolutePointer.coordinate(15, fieldOfView: settings.fieldOfViewX))
        let recentred = Self.writtenX(&engine, yawDegrees: 15, stamp: 80, buttons: .home)
        #expect(recentred == AbsolutePointer.axis.value, "recentred: the centre at once, unfiltered")
    }
}
