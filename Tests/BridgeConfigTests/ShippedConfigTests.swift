import CEvdev
import DaydreamProtocol
import EventVocabulary
import Foundation
import Mapping
import Testing
import Timebase
@testable import BridgeConfig

/// The files in config/ and the built-in default.
@Suite("Shipped configs")
struct ShippedConfigTests {
    static let files = RepositoryFiles.files(in: RepositoryFiles.config, endingIn: ".toml").map(\.lastPathComponent)

    /// The code libevdev gives `name`, so expectations never hard-code numbers.
    func code(_ name: String) throws -> UInt16 {
        let type = name.hasPrefix("ABS_") ? EV_ABS : EV_KEY
        let code = libevdev_event_code_from_name(UInt32(type), name)
        try #require(code >= 0, "libevdev knows \(name)")
        return UInt16(code)
    }

    func load(_ name: String) throws -> MappingConfiguration {
        try ConfigDecoder.decode(try RepositoryFiles.bytes(RepositoryFiles.config.appendingPathComponent(name)))
    }

    @Test("config/ holds the default and the four examples")
    func filesPresent() {
        #expect(Set(Self.files).isSuperset(of: ["default.toml", "emulator.toml", "gamepad.toml", "mouse.toml", "presenter.toml", "media.toml", "pointer.toml"]))
    }

    @Test("every file in config/ has no errors", arguments: files)
    func parses(name: String) throws {
        do {
            let configuration = try load(name)
            #expect(!configuration.profiles.isEmpty)
        } catch let errors as ConfigErrors {
            Issue.record("\(name):\n\(errors.formatted(file: name).joined(separator: "\n"))")
        }
    }

    @Test("the built-in default is config/default.toml byte for byte")
    func builtInMatchesFile() throws {
        let file = try RepositoryFiles.bytes(RepositoryFiles.config.appendingPathComponent("default.toml"))
        #expect(Array(DefaultConfig.text.utf8) == file, "run scripts/generate-default-config")
    }

    @Test("the built-in default loads")
    func builtInLoads() throws {
        let loaded = try ConfigLoader.load(.builtIn)
        #expect(loaded.source == .builtIn)
        #expect(loaded.configuration == (try load("default.toml")))
    }

    @Test("default.toml decodes to the documented values")
    func defaultValues() throws {
        let configuration = try load("default.toml")
        #expect(configuration.profiles.map(\.name) == ["gamepad", "mouse"])
        #expect(configuration.defaultProfile == "gamepad")
        #expect(configuration.nextProfileChord == [.home, .app])
        #expect(configuration.holdTime == .seconds(1))
        #expect(configuration.tapTime == MappingConfiguration.defaultTapTime)
        #expect(configuration.tapTime == .milliseconds(120))
        #expect(configuration.chordWindow == MappingConfiguration.defaultChordWindow)
        #expect(configuration.chordWindow == .milliseconds(40))
        #expect(configuration.gamepadIdentity == .default)
        #expect(configuration.controllerProfiles.isEmpty)

        let gamepad = try #require(configuration.profile(named: "gamepad"))
        #expect(gamepad.click == .plain(.keys([try code("BTN_SOUTH")])))
        #expect(gamepad.app == .plain(.keys([try code("BTN_EAST")])))
        #expect(gamepad.home == .tapHold(tap: .keys([try code("BTN_MODE")]), hold: .keys([try code("BTN_START")]), holdTime: nil))
        #expect(gamepad.volumeUp == .plain(.keys([try code("BTN_TR")])))
        #expect(gamepad.volumeDown == .plain(.keys([try code("BTN_TL")])))
        var stick = StickOptions()
        stick.deadzone = 0.1
        stick.saturation = 0.9
        stick.shape = .circle
        #expect(gamepad.touchpad == .stick(stick))
        #expect(gamepad.tilt == nil)

        let mouse = try #require(configuration.profile(named: "mouse"))
        var trackpad = TrackpadOptions()
        trackpad.speed = 1.5
        trackpad.acceleration = 1.2
        #expect(mouse.touchpad == .trackpad(trackpad))
        #expect(mouse.click == .plain(.keys([try code("BTN_LEFT")])))
        #expect(mouse.home == .tapHold(tap: .keys([try code("KEY_LEFTMETA")]), hold: .airMouse, holdTime: nil))
        #expect(mouse.volumeUp == .plain(.keys([try code("KEY_VOLUMEUP")])))
        #expect(mouse.airMouse == AirMouseSettings())
    }

    @Test("gamepad.toml: chords, d-pad, tilt")
    func gamepadExample() throws {
        let configuration = try load("gamepad.toml")
        let gamepad = try #require(configuration.profile(named: "gamepad"))
        #expect(gamepad.chords == [Chord(buttons: [.volumeUp, .volumeDown], action: .keys([try code("BTN_SELECT")]))])
        guard case .stick(let stick) = gamepad.touchpad else {
            Issue.record("gamepad touchpad is \(gamepad.touchpad)")
            return
        }
        #expect(stick.deadzone == 0.12)
        #expect(stick.shape == .square)
        let racing = try #require(configuration.profile(named: "racing"))
        var tilt = TiltSettings()
        tilt.axis = try code("ABS_X")
        tilt.source = .roll
        tilt.range = 40
        tilt.deadzone = 2
        #expect(racing.tilt == tilt)
        var dpad = DpadOptions()
        dpad.activation = .touch
        dpad.output = .hat
        #expect(racing.touchpad == .dpad(dpad))
        #expect(racing.home == .tapHold(tap: .recenter, hold: .keys([try code("BTN_START")]), holdTime: nil))
    }

    @Test("emulator.toml: the default gamepad plus the motion-sensor device")
    func emulatorExample() throws {
        let configuration = try load("emulator.toml")
        let emulator = try #require(configuration.profile(named: "emulator"))
        #expect(emulator.motionSensors)
        #expect(configuration.capabilities[.motion] == MotionSensors.capabilities)
        let plain = try #require(try load("default.toml").profile(named: "gamepad"))
        #expect(emulator.click == plain.click && emulator.home == plain.home && emulator.touchpad == plain.touchpad)
    }

    @Test("pointer.toml: the presenter with the absolute pointer, recentred by home")
    func pointerExample() throws {
        let configuration = try load("pointer.toml")
        let pointer = try #require(configuration.profile(named: "pointer"))
        var settings = PointerSettings()
        settings.fieldOfViewX = 40
        settings.fieldOfViewY = 25
        #expect(pointer.pointer == settings)
        #expect(configuration.capabilities[.pointer] == AbsolutePointer.capabilities)
        #expect(pointer.click == .plain(.keys([try code("BTN_LEFT")])))
        #expect(pointer.home == .tapHold(tap: .recenter, hold: .keys([try code("KEY_ESC")]), holdTime: nil))
        #expect(configuration.capabilities.deviceKinds == [.mouse, .keyboard, .pointer])
    }

    @Test("presenter.toml: slides forward and back, blank, pointer")
    func presenterExample() throws {
        let presenter = try #require(try load("presenter.toml").profile(named: "presenter"))
        #expect(presenter.click == .plain(.keys([try code("KEY_RIGHT")])))
        #expect(presenter.volumeDown == .plain(.keys([try code("KEY_LEFT")])))
        #expect(presenter.app == .tapHold(tap: .keys([try code("KEY_B")]), hold: .keys([try code("KEY_F5")]), holdTime: .milliseconds(800)))
        #expect(presenter.home == .tapHold(tap: .keys([try code("KEY_ESC")]), hold: .airMouse, holdTime: nil))
    }

    @Test("mouse.toml: hold time, combination chord, wheel")
    func mouseExample() throws {
        let configuration = try load("mouse.toml")
        #expect(configuration.holdTime == .milliseconds(600))
        let mouse = try #require(configuration.profile(named: "mouse"))
        #expect(mouse.chords.first?.action == .keys([try code("KEY_LEFTCTRL"), try code("KEY_W")]))
        let reader = try #require(configuration.profile(named: "reader"))
        #expect(reader.airMouse.always)
        guard case .wheel(let wheel) = reader.touchpad else {
            Issue.record("reader touchpad is \(reader.touchpad)")
            return
        }
        #expect(wheel.detents == 18)
    }

    @Test("media.toml: media keys go to the keyboard")
    func mediaExample() throws {
        let configuration = try load("media.toml")
        let media = try #require(configuration.profile(named: "media"))
        #expect(media.click == .plain(.keys([try code("KEY_PLAYPAUSE")])))
        #expect(media.app == .tapHold(tap: .keys([try code("KEY_NEXTSONG")]), hold: .keys([try code("KEY_PREVIOUSSONG")]), holdTime: nil))
        #expect(configuration.capabilities[.keyboard]?.hasKey(try code("KEY_PLAYPAUSE")) == true)
        #expect(configuration.capabilities[.gamepad] == nil)
        #expect(configuration.capabilities[.mouse] == nil)
    }
}

@Suite("default.toml documents the whole schema")
struct SchemaDocumentationTests {
    /// Every key and every fixed value the decoder accepts.
    static let schemaWords: [String] = ConfigDecoder.rootKeys + ConfigDecoder.bridgeKeys + ConfigDecoder.gamepadKeys
        + ConfigDecoder.controllerKeys + ConfigReader.profileKeys + ConfigReader.airMouseKeys + ConfigReader.tiltKeys
        + ConfigReader.tapHoldKeys + ConfigReader.touchpadOptions.flatMap { [$0.mode] + $0.keys }
        + ConfigReader.specialActionNames + GamepadIdentity.allCases.map(\.rawValue)
        + StickShape.allCases.map(\.rawValue) + DpadActivation.allCases.map(\.rawValue)
        + DpadOutput.allCases.map(\.rawValue) + TiltSource.allCases.map(\.rawValue)

    @Test("every key and choice appears in default.toml", arguments: Set(schemaWords).sorted())
    func documented(word: String) {
        #expect(Self.mentions(DefaultConfig.text, word), "config/default.toml never mentions \(word)")
    }

    /// True when `word` occurs in `text` as a whole word (not inside a longer key).
    static func mentions(_ text: String, _ word: String) -> Bool {
        let characters = Array(text)
        let target = Array(word)
        func isKeyCharacter(_ character: Character) -> Bool {
            character.isLetter || character.isNumber || character == "-" || character == "_"
        }
        guard target.count <= characters.count else { return false }
        for start in 0...(characters.count - target.count) where Array(characters[start..<start + target.count]) == target {
            let before = start == 0 ? nil : characters[start - 1]
            let after = start + target.count == characters.count ? nil : characters[start + target.count]
            if !(before.map(isKeyCharacter) ?? false), !(after.map(isKeyCharacter) ?? false) { return true }
        }
        return false
    }
}
