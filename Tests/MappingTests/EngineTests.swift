import DaydreamProtocol
import EventVocabulary
import Mapping
import Testing
import Timebase

@Suite("Mapping engine API")
struct EngineTests {
    private let game = Profile(name: "game", click: .plain(.keys([EventCode.btnSouth])))
    private let desk = Profile(name: "desk", click: .plain(.keys([EventCode.btnLeft])))

    @Test func startsInTheRequestedDefaultOrFirstProfile() {
        let configuration = MappingConfiguration(profiles: [game, desk], defaultProfile: "desk",
                                                 controllerProfiles: ["AA:BB:CC:DD:EE:FF": "game"])
        #expect(MappingEngine(configuration: configuration, profileName: "game").profileName == "game")
        #expect(MappingEngine(configuration: configuration, profileName: "nope").profileName == "desk")
        #expect(MappingEngine(configuration: configuration).profileName == "desk")
        #expect(MappingEngine(configuration: MappingConfiguration(profiles: [game, desk])).profileName == "game")
        #expect(configuration.startingProfileName(forController: "aa:bb:cc:dd:ee:ff") == "game")
        #expect(configuration.startingProfileName(forController: "00:00:00:00:00:01") == "desk")
    }

    @Test func withoutProfilesNothingHappens() {
        var engine = MappingEngine(configuration: MappingConfiguration(profiles: []))
        var buffer = OutputBuffer()
        engine.update(ControllerInput(buttons: [.click, .home], touch: TouchPoint(x: 0.9, y: 0.1)), at: .zero, into: &buffer)
        engine.releaseAll(into: &buffer)
        #expect(buffer.isEmpty == true)
        #expect(engine.nextDeadline == nil)
        #expect(engine.capabilities.deviceKinds.isEmpty)
    }

    @Test func everyFrameEndsWithOneSynReportPerChangedDevice() {
        let profile = Profile(name: "p", click: .plain(.keys([EventCode.btnSouth, 29, EventCode.btnLeft])),
                              touchpad: .stick(StickOptions()))
        var engine = MappingEngine(configuration: MappingConfiguration(profiles: [profile]))
        var buffer = OutputBuffer()
        engine.update(ControllerInput(buttons: .click, touch: TouchPoint(x: 0.9, y: 0.9)), at: .zero, into: &buffer)
        let last = buffer.events.suffix(3)
        #expect(last.allSatisfy { $0.isSynReport })
        #expect(last.map(\.device) == [.gamepad, .mouse, .keyboard])
        #expect(buffer.events.dropLast(3).allSatisfy { !$0.isSynReport })
        // Each device's events before the frame's end are its own codes.
        for event in buffer.events where !event.isSynReport {
            #expect(OutputDeviceKind.route(type: event.type, code: event.code) == event.device)
        }
    }

    @Test func releaseAllLeavesNothingDown() {
        let profile = Profile(
            name: "p",
            click: .plain(.keys([EventCode.btnSouth])),
            app: .plain(.keys([29, 46])),
            home: .tapHold(tap: nil, hold: .keys([EventCode.btnMode]), holdTime: nil),
            touchpad: .dpad(DpadOptions()))
        var engine = MappingEngine(configuration: MappingConfiguration(profiles: [profile]))
        var buffer = OutputBuffer()
        engine.update(ControllerInput(buttons: [.click, .app, .home], touch: TouchPoint(x: 0.5, y: 0.05)), at: .zero, into: &buffer)
        engine.advance(to: .seconds(2), into: &buffer)
        #expect(engine.isIdle == false)
        buffer.removeAll()
        engine.releaseAll(into: &buffer)
        #expect(engine.isIdle == true)
        let released = buffer.events.filter { !$0.isSynReport }
        #expect(!released.isEmpty)
        #expect(released.allSatisfy { $0.value == 0 })
        #expect(buffer.events.last?.isSynReport == true)
    }

    @Test func reloadKeepsTheProfileAndReportsWhenItVanishes() {
        var engine = MappingEngine(configuration: MappingConfiguration(profiles: [game, desk]), profileName: "desk")
        var buffer = OutputBuffer()
        engine.reload(MappingConfiguration(profiles: [desk, game]), at: .zero, into: &buffer)
        #expect(engine.profileName == "desk")
        #expect(engine.takeNotices().isEmpty)
        engine.reload(MappingConfiguration(profiles: [game]), at: .zero, into: &buffer)
        #expect(engine.profileName == "game")
        #expect(engine.takeNotices() == [.profileChanged(from: "desk", to: "game")])
        #expect(engine.takeNotices().isEmpty)
    }

    @Test func aButtonHeldThroughReloadIsSwallowed() {
        var engine = MappingEngine(configuration: MappingConfiguration(profiles: [game]))
        var buffer = OutputBuffer()
        engine.update(ControllerInput(buttons: .click), at: .zero, into: &buffer)
        engine.reload(MappingConfiguration(profiles: [desk]), at: .milliseconds(10), into: &buffer)
        buffer.removeAll()
        engine.update(ControllerInput(buttons: .click), at: .milliseconds(20), into: &buffer)
        engine.update(ControllerInput(), at: .milliseconds(30), into: &buffer)
        #expect(buffer.isEmpty == true)
        engine.update(ControllerInput(buttons: .click), at: .milliseconds(40), into: &buffer)
        #expect(buffer.events.first == OutputEvent(device: .mouse, type: EventType.key, code: EventCode.btnLeft, value: 1))
    }

    @Test func controllerInputFromAPacket() {
        let packet = DaydreamPacket(gyro: RawVector(0, 100, 0), touchX: 255, touchY: 0, buttons: [.app, .volumeUp])
        let input = ControllerInput(packet: packet)
        #expect(input.buttons == [.app, .volumeUp])
        #expect(input.touch == TouchPoint(x: 1, y: 0))
        #expect(input.rotationRate.y > 0)
        #expect(ControllerInput(packet: DaydreamPacket()).touch == nil)
    }

    @Test func actionAndChordNames() {
        #expect(Action(specialName: "air-mouse") == .airMouse)
        #expect(Action(specialName: "profile:desk") == .profile("desk"))
        #expect(Action(specialName: "profile:") == nil)
        #expect(Action(specialName: "BTN_SOUTH") == nil)
        #expect(Chord.buttons(named: "home+app") == [.home, .app])
        #expect(Chord.buttons(named: "volume-up+volume-down+click") == [.volumeUp, .volumeDown, .click])
        #expect(Chord.buttons(named: "home") == nil)
        #expect(Chord.buttons(named: "home+home") == nil)
        #expect(Chord.buttons(named: "home+") == nil)
        #expect(Chord.name(of: [.app, .home]) == "app+home")
    }
}

@Suite("Hold deadlines without a timer")
struct HoldDeadlineTests {
    /// A release arriving exactly at the hold time, with no `advance` before it: the hold wins,
    /// and, started late, it stays down a tap time.
    @Test func releaseAtTheThresholdIsAHold() {
        let profile = Profile(name: "p", home: .tapHold(tap: .keys([EventCode.btnMode]), hold: .keys([EventCode.btnStart]), holdTime: nil))
        var engine = MappingEngine(configuration: MappingConfiguration(profiles: [profile]))
        var buffer = OutputBuffer()
        engine.update(ControllerInput(buttons: .home), at: .zero, into: &buffer)
        #expect(engine.nextDeadline == .seconds(1))
        engine.update(ControllerInput(), at: .seconds(1), into: &buffer)
        #expect(buffer.events.filter { !$0.isSynReport }.map { [$0.code, UInt16($0.value)] } == [[EventCode.btnStart, 1]])
        #expect(engine.nextDeadline == .seconds(1) + MappingConfiguration.defaultTapTime)
        engine.advance(to: .seconds(1) + MappingConfiguration.defaultTapTime, into: &buffer)
        #expect(buffer.events.filter { !$0.isSynReport }.map { [$0.code, UInt16($0.value)] }
            == [[EventCode.btnStart, 1], [EventCode.btnStart, 0]])
    }

    /// One nanosecond earlier it is a tap: pressed at the release, released a tap time later.
    @Test func releaseJustBeforeIsATap() {
        let profile = Profile(name: "p", home: .tapHold(tap: .keys([EventCode.btnMode]), hold: .keys([EventCode.btnStart]), holdTime: nil))
        var engine = MappingEngine(configuration: MappingConfiguration(profiles: [profile]))
        var buffer = OutputBuffer()
        engine.update(ControllerInput(buttons: .home), at: .zero, into: &buffer)
        let release = MonotonicTime(nanoseconds: 999_999_999)
        engine.update(ControllerInput(), at: release, into: &buffer)
        #expect(buffer.events.filter { !$0.isSynReport }.map { [$0.code, UInt16($0.value)] } == [[EventCode.btnMode, 1]])
        #expect(engine.nextDeadline == release + MappingConfiguration.defaultTapTime)
        buffer.removeAll()
        engine.update(ControllerInput(), at: release + MappingConfiguration.defaultTapTime, into: &buffer)
        #expect(buffer.events.filter { !$0.isSynReport }.map { [$0.code, UInt16($0.value)] } == [[EventCode.btnMode, 0]])
        #expect(engine.nextDeadline == nil)
    }
}
