import Foundation
import Testing
@testable import VirtualDevice

/// The shipped udev rules: syntax (udev(7)'s key=value grammar, checked by
/// `UdevRules`, since Debian 12's udevadm has no `verify`), file order
/// against systemd's own rules, and their effect on the bridge's devices.
@Suite("udev rules")
struct UdevRulesTests {
    static let directory = URLs.repositoryRoot + "/udev"
    static let uinputRules = "60-daydream-bridge-uinput.rules"
    static let deviceRules = "65-daydream-bridge-devices.rules"

    static func load(_ name: String) throws -> UdevRules {
        try UdevRules(String(contentsOfFile: directory + "/" + name, encoding: .utf8))
    }

    @Test(arguments: [uinputRules, deviceRules])
    func rulesParse(name: String) throws {
        let rules = try Self.load(name)
        #expect(!rules.rules.isEmpty)
    }

    @Test func linterRejectsWhatUdevRejects() {
        #expect(throws: UdevRules.ParseError.self) { try UdevRules(#"KERNEL="uinput""#) }
        #expect(throws: UdevRules.ParseError.self) { try UdevRules(#"OPTIONS=="static_node=uinput""#) }
        #expect(throws: UdevRules.ParseError.self) { try UdevRules(#"KERNEL=="uinput" TAG+="uaccess""#) }
        #expect(throws: UdevRules.ParseError.self) { try UdevRules(#"KERNEL==uinput"#) }
        #expect(throws: UdevRules.ParseError.self) { try UdevRules(#"ENV="x""#) }
        #expect(throws: UdevRules.ParseError.self) { try UdevRules(#"GOTO="nowhere""#) }
        #expect(throws: UdevRules.ParseError.self) { try UdevRules(#"KERNAL=="uinput""#) }
    }

    /// uaccess is acted on in 73-seat-late.rules; input_id runs in
    /// 60-input-id.rules; 70-uaccess.rules tags joysticks for the seat user.
    @Test func filesSortWhereTheyMustAmongSystemdsRules() {
        #expect(Self.uinputRules < "73-seat-late.rules")
        #expect(Self.deviceRules > "60-input-id.rules")
        #expect(Self.deviceRules > "60-persistent-input.rules")
        #expect(Self.deviceRules < "70-joystick.rules")
        #expect(Self.deviceRules < "70-mouse.rules")
        #expect(Self.deviceRules < "70-uaccess.rules")
        #expect(Self.deviceRules < "73-seat-late.rules")
    }

    @Test func uinputGetsUaccessOnItsStaticNode() throws {
        let rules = try Self.load(Self.uinputRules)
        let node = UdevRules.Device(subsystem: "misc", kernel: "uinput", devpath: "/devices/virtual/misc/uinput")
        #expect(rules.evaluate(node).tags == ["uaccess"])
        let tokens = try #require(rules.rules.first?.tokens.map(\.description))
        #expect(tokens.contains(#"OPTIONS+="static_node=uinput""#))
        let other = UdevRules.Device(subsystem: "misc", kernel: "fuse", devpath: "/devices/virtual/misc/fuse")
        #expect(rules.evaluate(other).tags.isEmpty)
    }

    @Test func uhidGetsUaccessOnItsStaticNodeToo() throws {
        let rules = try Self.load(Self.uinputRules)
        let node = UdevRules.Device(subsystem: "misc", kernel: "uhid", devpath: "/devices/virtual/misc/uhid")
        #expect(rules.evaluate(node).tags == ["uaccess"])
        let tokens = try #require(rules.rules.first { $0.tokens.map(\.description).contains(#"KERNEL=="uhid""#) }?.tokens)
        #expect(tokens.map(\.description).contains(#"OPTIONS+="static_node=uhid""#))
    }

    @Test func groupAlternativeIsDocumented() throws {
        let text = try String(contentsOfFile: Self.directory + "/" + Self.uinputRules, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("#KERNEL==") })
        let rules = try UdevRules(String(line.dropFirst()))
        #expect(rules.rules.first?.tokens.map(\.description).contains(#"GROUP="input""#) == true)
        #expect(rules.rules.first?.tokens.map(\.description).contains(#"MODE="0660""#) == true)
    }

    /// The device as input_id left it, with a wrong guess to be corrected.
    static func device(_ identity: DeviceIdentity, guessed: [String: String]) -> UdevRules.Device {
        let hex = { (value: UInt16) in String(format: "%04x", value) }
        return UdevRules.Device(attributes: [
            "id/bustype": hex(identity.bus), "id/vendor": hex(identity.vendor),
            "id/product": hex(identity.product), "name": identity.name,
        ], environment: guessed)
    }

    @Test(arguments: [DeviceIdentity.gamepad, DeviceIdentity.xbox360])
    func gamepadIsAJoystickAndNothingElse(identity: DeviceIdentity) throws {
        let rules = try Self.load(Self.deviceRules)
        let result = rules.evaluate(Self.device(identity, guessed: ["ID_INPUT": "1", "ID_INPUT_MOUSE": "1", "ID_INPUT_KEY": "1"]))
        #expect(result.environment == ["ID_INPUT": "1", "ID_INPUT_JOYSTICK": "1", "DAYDREAM_BRIDGE_DEVICE": "gamepad"])
    }

    @Test func mouseIsAMouseNotAJoystick() throws {
        let rules = try Self.load(Self.deviceRules)
        let result = rules.evaluate(Self.device(.mouse, guessed: ["ID_INPUT": "1", "ID_INPUT_JOYSTICK": "1"]))
        #expect(result.environment == ["ID_INPUT": "1", "ID_INPUT_MOUSE": "1", "DAYDREAM_BRIDGE_DEVICE": "mouse"])
    }

    @Test func keyboardIsKeys() throws {
        let rules = try Self.load(Self.deviceRules)
        let result = rules.evaluate(Self.device(.keyboard, guessed: ["ID_INPUT": "1", "ID_INPUT_KEYBOARD": "1"]))
        #expect(result.environment == ["ID_INPUT": "1", "ID_INPUT_KEY": "1", "ID_INPUT_KEYBOARD": "1",
                                       "DAYDREAM_BRIDGE_DEVICE": "keyboard"])
    }

    /// input_id marks a device with INPUT_PROP_ACCELEROMETER an accelerometer; the rules keep
    /// that, drop any other guess, and give the event node (not a joydev node) to the seat user.
    @Test func motionSensorsStayAnAccelerometerAndGoToTheSeatUser() throws {
        let rules = try Self.load(Self.deviceRules)
        let guessed = ["ID_INPUT": "1", "ID_INPUT_ACCELEROMETER": "1", "ID_INPUT_JOYSTICK": "1"]
        let event = rules.evaluate(Self.device(.motion, guessed: guessed))
        #expect(event.environment == ["ID_INPUT": "1", "ID_INPUT_ACCELEROMETER": "1", "DAYDREAM_BRIDGE_DEVICE": "motion"])
        #expect(event.tags == ["uaccess"])
        var joystickNode = Self.device(.motion, guessed: guessed)
        joystickNode.kernel = "js0"
        joystickNode.devpath = "/devices/virtual/input/input12/js0"
        #expect(rules.evaluate(joystickNode).tags.isEmpty)
        for other in [DeviceIdentity.gamepad, .mouse, .keyboard] {
            #expect(rules.evaluate(Self.device(other, guessed: ["ID_INPUT": "1"])).tags.isEmpty, "\(other.name)")
        }
    }

    /// input_id could guess a tablet or touchscreen from absolute axes; the pointer is a mouse
    /// (which libinput reads as an absolute pointer), with no seat tag of its own, like the mouse.
    @Test func pointerIsAMouseNotATabletOrTouchscreen() throws {
        let rules = try Self.load(Self.deviceRules)
        let guessed = ["ID_INPUT": "1", "ID_INPUT_TABLET": "1", "ID_INPUT_TOUCHSCREEN": "1", "ID_INPUT_JOYSTICK": "1"]
        let result = rules.evaluate(Self.device(.pointer, guessed: guessed))
        #expect(result.environment == ["ID_INPUT": "1", "ID_INPUT_MOUSE": "1", "DAYDREAM_BRIDGE_DEVICE": "pointer"])
        #expect(result.tags.isEmpty)
    }

    /// input_id guesses a touchscreen from BTN_TOUCH and a mouse from BTN_LEFT; the touchpad is
    /// a touchpad, nothing else, with no seat tag of its own (libinput opens it as the seat's).
    @Test func touchpadIsATouchpadNotATouchscreenOrAMouse() throws {
        let rules = try Self.load(Self.deviceRules)
        let guessed = ["ID_INPUT": "1", "ID_INPUT_TOUCHSCREEN": "1", "ID_INPUT_MOUSE": "1", "ID_INPUT_KEY": "1"]
        let result = rules.evaluate(Self.device(DeviceIdentity(.touchpad), guessed: guessed))
        #expect(result.environment == ["ID_INPUT": "1", "ID_INPUT_TOUCHPAD": "1", "DAYDREAM_BRIDGE_DEVICE": "touchpad"])
        #expect(result.tags.isEmpty)
    }

    /// The virtual DualSense's hidraw and motion nodes (under /dev/uhid's device) go to the seat
    /// user; its pad node is left to systemd; a real DualSense's nodes are left alone.
    @Test func theUhidDualSensesHidrawAndMotionNodesGoToTheSeatUser() throws {
        let rules = try Self.load(Self.deviceRules)
        let virtualHID = "/devices/virtual/misc/uhid/0005:054C:0CE6.0003"
        let realHID = "/devices/pci0000:00/0000:00:14.0/usb1/1-5/1-5:1.0/bluetooth/hci0/hci0:256/0005:054C:0CE6.0003"
        for parent in [virtualHID, realHID] {
            let hidraw = UdevRules.Device(subsystem: "hidraw", kernel: "hidraw0", devpath: "\(parent)/hidraw/hidraw0")
            let motion = UdevRules.Device(
                kernel: "event9", devpath: "\(parent)/input/input21/event9",
                environment: ["ID_INPUT": "1", "ID_INPUT_ACCELEROMETER": "1"])
            let pad = UdevRules.Device(
                kernel: "event8", devpath: "\(parent)/input/input20/event8",
                environment: ["ID_INPUT": "1", "ID_INPUT_JOYSTICK": "1"])
            let tagged = parent == virtualHID ? Set(["uaccess"]) : []
            #expect(rules.evaluate(hidraw).tags == tagged, "hidraw under \(parent)")
            #expect(rules.evaluate(motion).tags == tagged, "motion node under \(parent)")
            #expect(rules.evaluate(motion).environment == motion.environment)
            #expect(rules.evaluate(pad).tags.isEmpty && rules.evaluate(pad).environment == pad.environment)
        }
    }

    @Test func realXbox360PadIsLeftAlone() throws {
        let rules = try Self.load(Self.deviceRules)
        var pad = Self.device(.xbox360, guessed: ["ID_INPUT": "1", "ID_INPUT_JOYSTICK": "1", "ID_INPUT_KEY": "1"])
        pad.devpath = "/devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0/input/input30/event20"
        #expect(rules.evaluate(pad).environment == pad.environment)
    }

    @Test func otherVirtualDevicesAndRemovalsAreLeftAlone() throws {
        let rules = try Self.load(Self.deviceRules)
        let stranger = UdevRules.Device(attributes: ["id/bustype": "0006", "id/vendor": "1234", "id/product": "0001"],
                                        environment: ["ID_INPUT_MOUSE": "1"])
        #expect(rules.evaluate(stranger).environment == stranger.environment)
        var removal = Self.device(.gamepad, guessed: ["ID_INPUT_MOUSE": "1"])
        removal.action = "remove"
        #expect(rules.evaluate(removal).environment == removal.environment)
    }

    /// uinput for the devices, uhid for identity = "dualsense": loaded at boot, their nodes get the
    /// rules before the bridge starts.
    @Test func modulesLoadFileLoadsUinputAndUhid() throws {
        let text = try String(contentsOfFile: Self.directory + "/modules-load.d/daydream-bridge.conf", encoding: .utf8)
        let modules = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") && !$0.hasPrefix(";") }
        #expect(modules == ["uinput", "uhid"])
    }
}
