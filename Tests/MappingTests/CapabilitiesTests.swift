import DaydreamProtocol
import EventVocabulary
import Mapping
import Testing

@Suite("Capabilities from profiles")
struct CapabilitiesTests {
    private func capabilities(_ profiles: Profile...) -> Capabilities {
        MappingConfiguration(profiles: profiles).capabilities
    }

    @Test func boundGamepadButtonsAndTheGamepadMark() throws {
        let caps = capabilities(Profile(name: "p", click: .plain(.keys([EventCode.btnNorth]))))
        let pad = try #require(caps[.gamepad])
        #expect(pad.hasKey(EventCode.btnNorth))
        // BTN_SOUTH (= BTN_GAMEPAD) always, and a second gamepad button so udev says joystick.
        #expect(pad.hasKey(EventCode.btnSouth))
        #expect(pad.keys.filter { (EventCode.btnJoystick..<EventCode.btnDigi).contains($0) }.count >= 2)
        #expect(caps[.mouse] == nil)
        #expect(caps[.keyboard] == nil)
        #expect(caps.deviceKinds == [.gamepad])
    }

    @Test func mouseButtonsGoToTheMouseNeverTheGamepad() {
        let profile = Profile(
            name: "p",
            click: .plain(.keys([EventCode.btnLeft])),
            app: .tapHold(tap: .keys([EventCode.btnRight]), hold: .keys([EventCode.btnMiddle]), holdTime: nil),
            home: .plain(.keys([EventCode.btnSouth])),
            volumeUp: .plain(.keys([EventCode.btnSide, EventCode.btnExtra])))
        let caps = capabilities(profile)
        let mouseButtons = EventCode.btnLeft...EventCode.btnTask
        #expect(caps[.gamepad]?.keys.contains(where: mouseButtons.contains) == false)
        #expect(caps[.mouse]?.keys == [EventCode.btnLeft, EventCode.btnRight, EventCode.btnMiddle, EventCode.btnSide, EventCode.btnExtra])
        // A mouse always has pointer axes, so udev and libinput take it for a mouse.
        #expect(caps[.mouse]?.relativeAxes == [EventCode.relX, EventCode.relY])
    }

    @Test func stickAxesAreCentredOnTheGamepad() throws {
        let caps = capabilities(Profile(name: "p", touchpad: .stick(StickOptions())))
        let pad = try #require(caps[.gamepad])
        for code in [EventCode.absX, EventCode.absY] {
            let info = try #require(pad.absInfo(code))
            #expect(info.minimum == -32768)
            #expect(info.maximum == 32767)
            #expect(info.value == 0)
            #expect(info.fuzz == 0)
        }
        #expect(pad.hasKey(EventCode.btnSouth))
        #expect(caps[.mouse] == nil)
    }

    /// SDL without udev (Flatpak, Snap, Steam's runtime, SDL_JOYSTICK_DISABLE_UDEV=1) and
    /// Godot take a device for a joystick only with ABS_X and ABS_Y.
    @Test(arguments: [
        Profile(name: "dpad", touchpad: .dpad(DpadOptions())),
        Profile(name: "hat", touchpad: .dpad({ var o = DpadOptions(); o.output = .hat; return o }())),
        Profile(name: "tilt", tilt: TiltSettings()),
        Profile(name: "right-stick", touchpad: .stick({ var o = StickOptions(); o.xAxis = EventCode.absRx; o.yAxis = EventCode.absRy; return o }())),
        Profile(name: "buttons", click: .plain(.keys([EventCode.btnNorth]))),
    ])
    func gamepadAlwaysHasACentredLeftStick(profile: Profile) throws {
        let pad = try #require(capabilities(profile)[.gamepad])
        #expect(pad.absInfo(EventCode.absX) == .stick)
        #expect(pad.absInfo(EventCode.absY) == .stick)
    }

    @Test func keysGoToTheKeyboard() {
        let caps = capabilities(Profile(name: "p", volumeUp: .plain(.keys([115])), volumeDown: .plain(.keys([114]))))
        #expect(caps[.keyboard]?.keys == [114, 115])
        #expect(caps[.gamepad] == nil)
        #expect(caps[.mouse] == nil)
    }

    @Test func touchpadModesAddTheirCodes() {
        let hat = capabilities(Profile(name: "p", touchpad: .dpad({ var o = DpadOptions(); o.output = .hat; return o }())))
        #expect(hat[.gamepad]?.absInfo(EventCode.absHat0x) == .hat)
        #expect(hat[.gamepad]?.absInfo(EventCode.absHat0y) == .hat)

        let buttons = capabilities(Profile(name: "p", touchpad: .dpad(DpadOptions())))
        #expect(buttons[.gamepad]?.keys.contains(EventCode.btnDpadUp) == true)
        #expect(buttons[.gamepad]?.keys.contains(EventCode.btnDpadRight) == true)

        let scroll = capabilities(Profile(name: "p", touchpad: .scroll(ScrollOptions())))
        #expect(scroll[.mouse]?.relativeAxes == [
            EventCode.relX, EventCode.relY, EventCode.relHwheel, EventCode.relWheel,
            EventCode.relWheelHiRes, EventCode.relHwheelHiRes,
        ])
        #expect(scroll[.gamepad] == nil)

        let wheel = capabilities(Profile(name: "p", touchpad: .wheel(WheelOptions())))
        #expect(wheel[.mouse]?.hasRelative(EventCode.relWheelHiRes) == true)
        #expect(wheel[.mouse]?.hasRelative(EventCode.relHwheel) == false)
    }

    @Test func airMouseAndTiltOnlyWhenUsed() {
        let idle = capabilities(Profile(name: "p", tilt: nil))
        #expect(idle.deviceKinds.isEmpty)

        let held = capabilities(Profile(name: "p", home: .tapHold(tap: nil, hold: .airMouse, holdTime: nil)))
        #expect(held[.mouse]?.hasRelative(EventCode.relX) == true)
        #expect(held[.gamepad] == nil)

        var tilt = TiltSettings()
        tilt.axis = EventCode.absRx
        let steering = Profile(name: "p", tilt: tilt).capabilities
        #expect(steering[.gamepad]?.absInfo(EventCode.absRx) == .stick)
        // Only the tilt's own axis; the device's ABS_X/ABS_Y are classification codes.
        #expect(steering[.gamepad]?.absoluteAxes.map(\.code) == [EventCode.absRx])
    }

    @Test func theUnionOverAllProfiles() {
        let caps = capabilities(
            Profile(name: "game", click: .plain(.keys([EventCode.btnSouth])), touchpad: .stick(StickOptions())),
            Profile(name: "desk", click: .plain(.keys([EventCode.btnLeft])), touchpad: .trackpad(TrackpadOptions())),
            Profile(name: "media", click: .plain(.keys([164]))))
        #expect(caps.deviceKinds == [.gamepad, .mouse, .keyboard])
        #expect(caps[.keyboard]?.keys == [164])
        #expect(caps[.gamepad]?.absInfo(EventCode.absX) != nil)
    }

    @Test func routing() {
        #expect(OutputDeviceKind.routeKey(1) == .keyboard)               // KEY_ESC
        #expect(OutputDeviceKind.routeKey(0x160) == .keyboard)           // KEY_OK
        #expect(OutputDeviceKind.routeKey(0x120) == .gamepad)            // BTN_TRIGGER
        #expect(OutputDeviceKind.routeKey(0x100) == .gamepad)            // BTN_0
        #expect(OutputDeviceKind.routeKey(EventCode.btnDpadLeft) == .gamepad)
        #expect(OutputDeviceKind.routeKey(EventCode.btnTriggerHappy1) == .gamepad)
        #expect(OutputDeviceKind.routeKey(EventCode.btnTask) == .mouse)
        #expect(OutputDeviceKind.routeKey(0x14a) == nil)                 // BTN_TOUCH would make a touchscreen
        #expect(OutputDeviceKind.routeKey(0) == nil)                     // KEY_RESERVED
        #expect(OutputDeviceKind.routeKey(0x300) == nil)
        #expect(OutputDeviceKind.route(type: EventType.rel, code: EventCode.relWheel) == .mouse)
        #expect(OutputDeviceKind.route(type: EventType.abs, code: EventCode.absHat0y) == .gamepad)
        #expect(OutputDeviceKind.route(type: EventType.syn, code: 0) == nil)
    }
}
