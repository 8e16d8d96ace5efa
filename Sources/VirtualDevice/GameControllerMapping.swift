import EventVocabulary

/// A gamepad's SDL joystick GUID and its line in SDL_GameControllerDB's
/// format (`GUID,NAME,a:b0,...,platform:Linux,`), for `SDL_GAMECONTROLLERCONFIG`
/// and for engines that read such lines themselves (Godot).
///
/// The line holds the bindings SDL 2's automatic mapping gives an evdev
/// gamepad (`LINUX_JoystickGetGamepadMapping`), numbered the way SDL and
/// Godot number an evdev device's controls: buttons from `BTN_JOYSTICK`
/// up, then those below it; digital hats (`ABS_HAT0X`... pairs) apart;
/// every other absolute axis in code order. So a game that applies the line
/// sees the same pad as one where SDL mapped it by itself.
public enum GameControllerMapping {
    /// The SDL_GameControllerDB line for the gamepad `description` describes.
    /// Its GUID has no name checksum, the form SDL's database and Godot use
    /// (SDL 2.26 and later match such a line to the device as well).
    public static func line(for description: DeviceDescription) -> String {
        let guid = guid(for: description.identity, withNameChecksum: false)
        let bindings = Layout(description.capabilities).bindings
            .sorted { $0.element < $1.element }
            .map { "\($0.element):\($0.input)" }
        return ([guid, description.identity.name] + bindings + ["platform:Linux"]).joined(separator: ",") + ","
    }

    /// The 32 hex digits of SDL's GUID for an evdev device: bus, then (from
    /// SDL 2.26 on, `withNameChecksum`) the CRC-16 of the name SDL gives the
    /// device, vendor, product and version, each 16 bits little-endian and
    /// each of the last three followed by 16 zero bits. Godot 3 builds the
    /// same GUID without the checksum (and only when vendor, product and
    /// version are all nonzero, as they are for every identity here).
    public static func guid(for identity: DeviceIdentity, withNameChecksum: Bool) -> String {
        let checksum = withNameChecksum ? nameChecksum(sdlName(for: identity)) : 0
        let words = [identity.bus, checksum, identity.vendor, 0, identity.product, 0, identity.version, 0]
        return words.map(littleEndianHex).joined()
    }

    /// The name SDL gives an evdev joystick: its own name for a vendor and
    /// product in its controller table ("Xbox 360 Controller" for 045e:028e),
    /// otherwise the device's name.
    public static func sdlName(for identity: DeviceIdentity) -> String {
        identity.vendor == DeviceIdentity.xbox360.vendor && identity.product == DeviceIdentity.xbox360.product
            ? "Xbox 360 Controller" : identity.name
    }

    /// SDL's `SDL_crc16` (polynomial 0xA001 reflected, initial value 0) over the name's bytes.
    public static func nameChecksum(_ name: String) -> UInt16 {
        var crc: UInt16 = 0
        for byte in name.utf8 {
            var value = UInt16(UInt8(truncatingIfNeeded: crc) ^ byte)
            for _ in 0..<8 {
                value = (value & 1) != 0 ? (value >> 1) ^ 0xA001 : value >> 1
            }
            crc = value ^ (crc >> 8)
        }
        return crc
    }

    private static func littleEndianHex(_ word: UInt16) -> String {
        hexByte(UInt8(word & 0xFF)) + hexByte(UInt8(word >> 8))
    }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}

/// SDL's numbering of an evdev gamepad's controls and its automatic bindings.
private struct Layout {
    struct Binding {
        var element: String
        var input: String
    }

    private var buttons: [UInt16: Int] = [:]
    private var axes: [UInt16: Int] = [:]
    /// Hat number (0 for `ABS_HAT0X`/`Y`...) -> SDL's hat index, for digital hats.
    private var hats: [Int: Int] = [:]

    init(_ capabilities: DeviceCapabilities) {
        let joystickFirst = capabilities.keys.filter { $0 >= EventCode.btnJoystick }
            + capabilities.keys.filter { $0 < EventCode.btnJoystick }
        for (index, code) in joystickFirst.enumerated() { buttons[code] = index }
        for hat in 0..<4 {
            let x = capabilities.absInfo(EventCode.absHat0x + UInt16(2 * hat))
            let y = capabilities.absInfo(EventCode.absHat0y + UInt16(2 * hat))
            if Self.isDigitalHat(x, y) { hats[hat] = hats.count }
        }
        for axis in capabilities.absoluteAxes where !isHatAxis(axis.code) {
            axes[axis.code] = axes.count
        }
    }

    /// SDL's guess: a hat pair is digital when each present axis spans -1...1, or has no fuzz, flat or resolution.
    private static func isDigitalHat(_ x: AbsInfo?, _ y: AbsInfo?) -> Bool {
        let present = [x, y].compactMap { $0 }
        if present.isEmpty { return false }
        if present.allSatisfy({ $0.minimum == -1 && $0.maximum == 1 }) { return true }
        return present.allSatisfy { $0.fuzz == 0 && $0.flat == 0 && $0.resolution == 0 }
    }

    private func isHatAxis(_ code: UInt16) -> Bool {
        guard code >= EventCode.absHat0x, code <= EventCode.absHat3y else { return false }
        return hats[Int(code - EventCode.absHat0x) / 2] != nil
    }

    private func button(_ code: UInt16) -> String? { buttons[code].map { "b\($0)" } }
    private func axis(_ code: UInt16) -> String? { axes[code].map { "a\($0)" } }
    private func hat(_ number: Int, _ direction: Int) -> String? { hats[number].map { "h\($0).\(direction)" } }

    /// SDL 2's automatic bindings (`LINUX_JoystickGetGamepadMapping`, not for Sony's vendor id).
    var bindings: [Binding] {
        guard buttons[EventCode.btnGamepad] != nil else { return [] }
        var result: [String: String] = [:]
        let plain: [(String, UInt16)] = [
            ("a", EventCode.btnA), ("b", EventCode.btnB), ("x", EventCode.btnX), ("y", EventCode.btnY),
            ("back", EventCode.btnSelect), ("start", EventCode.btnStart), ("leftstick", EventCode.btnThumbl),
            ("rightstick", EventCode.btnThumbr), ("guide", EventCode.btnMode),
        ]
        for (element, code) in plain { result[element] = button(code) }

        // Shoulders: buttons, else hat 1, else the hat-1 axes.
        result["leftshoulder"] = button(EventCode.btnTl)
        result["rightshoulder"] = button(EventCode.btnTr)
        if result["leftshoulder"] == nil || result["rightshoulder"] == nil, hats[1] != nil {
            result["leftshoulder"] = hat(1, 4)
            result["rightshoulder"] = hat(1, 2)
        }
        result["leftshoulder"] = result["leftshoulder"] ?? axis(EventCode.absHat1y)
        result["rightshoulder"] = result["rightshoulder"] ?? axis(EventCode.absHat1x)

        // Triggers: axes, else hat 2, else buttons.
        result["lefttrigger"] = axis(EventCode.absHat2y) ?? axis(EventCode.absZ)
        result["righttrigger"] = axis(EventCode.absHat2x) ?? axis(EventCode.absRz)
        if result["lefttrigger"] == nil || result["righttrigger"] == nil, hats[2] != nil {
            result["lefttrigger"] = hat(2, 4)
            result["righttrigger"] = hat(2, 2)
        }
        result["lefttrigger"] = result["lefttrigger"] ?? button(EventCode.btnTl2)
        result["righttrigger"] = result["righttrigger"] ?? button(EventCode.btnTr2)

        // D-pad: buttons, else hat 0, else the hat-0 axes.
        let dpad: [(String, UInt16, Int)] = [
            ("dpup", EventCode.btnDpadUp, 1), ("dpdown", EventCode.btnDpadDown, 4),
            ("dpleft", EventCode.btnDpadLeft, 8), ("dpright", EventCode.btnDpadRight, 2),
        ]
        for (element, code, _) in dpad { result[element] = button(code) }
        if dpad.contains(where: { result[$0.0] == nil }) {
            if hats[0] != nil {
                for (element, _, direction) in dpad { result[element] = hat(0, direction) }
            } else if let x = axis(EventCode.absHat0x), let y = axis(EventCode.absHat0y) {
                result["dpleft"] = x
                result["dpright"] = x
                result["dpup"] = y
                result["dpdown"] = y
            }
        }

        if let x = axis(EventCode.absX), let y = axis(EventCode.absY) {
            result["leftx"] = x
            result["lefty"] = y
        }
        if let x = axis(EventCode.absRx), let y = axis(EventCode.absRy) {
            result["rightx"] = x
            result["righty"] = y
        }
        return result.map { Binding(element: $0.key, input: $0.value) }
    }
}
