import EventVocabulary

extension Action {
    /// The `EV_KEY` codes this action can press.
    var keyCodes: [UInt16] {
        if case .keys(let codes) = self { return codes }
        return []
    }

    /// True for `"air-mouse"`.
    var isAirMouse: Bool {
        if case .airMouse = self { return true }
        return false
    }
}

extension ButtonBinding {
    /// Every action this binding can take.
    var actions: [Action] {
        switch self {
        case .plain(let action): [action]
        case .tapHold(let tap, let hold, _): [tap, hold].compactMap { $0 }
        }
    }
}

extension Profile {
    /// Every action of buttons and chords.
    var allActions: [Action] {
        ControllerButton.allCases.flatMap { self[$0]?.actions ?? [] } + chords.map(\.action)
    }

    /// True when the gyro can move the pointer in this profile.
    var usesAirMouse: Bool {
        airMouse.always || allActions.contains(where: \.isAirMouse)
    }

    /// The codes this profile can emit, by device (without the classification helpers).
    public var capabilities: Capabilities {
        var result = Capabilities()
        for action in allActions {
            for code in action.keyCodes { result.insertKey(code) }
        }
        switch touchpad {
        case .none:
            break
        case .stick(let options):
            result.insertAbsolute(options.xAxis, .stick, on: options.device)
            result.insertAbsolute(options.yAxis, .stick, on: options.device)
        case .dpad(let options):
            switch options.output {
            case .buttons:
                for code in EventCode.btnDpadUp...EventCode.btnDpadRight { result.insertKey(code, on: options.device) }
            case .hat:
                result.insertAbsolute(EventCode.absHat0x, .hat, on: options.device)
                result.insertAbsolute(EventCode.absHat0y, .hat, on: options.device)
            }
        case .trackpad(let options):
            result.insertRelative(EventCode.relX, on: options.device)
            result.insertRelative(EventCode.relY, on: options.device)
        case .scroll(let options):
            for code in options.wheelCodes { result.insertRelative(code, on: options.device) }
        case .wheel(let options):
            for code in options.wheelCodes { result.insertRelative(code, on: options.device) }
        case .flick:
            result.insertRelative(EventCode.relX, on: .mouse)
            result.insertRelative(EventCode.relY, on: .mouse)
        case .touchpad:
            result[.touchpad] = TouchSurface.capabilities
        }
        if usesAirMouse {
            result.insertRelative(EventCode.relX, on: airMouse.device)
            result.insertRelative(EventCode.relY, on: airMouse.device)
        }
        if let tilt {
            result.insertAbsolute(tilt.axis, .stick, on: tilt.device)
        }
        if let gyro {
            switch gyro.output {
            case .mouse:
                result.insertRelative(EventCode.relX, on: .mouse)
                result.insertRelative(EventCode.relY, on: .mouse)
            case .rightStick, .leftStick:
                let (x, y) = gyro.output.stickAxes
                result.insertAbsolute(x, .stick, on: .gamepad)
                result.insertAbsolute(y, .stick, on: .gamepad)
            }
        }
        if motionSensors {
            result[.motion] = MotionSensors.capabilities
        }
        if pointer != nil {
            result[.pointer] = AbsolutePointer.capabilities
        }
        return result
    }
}

extension MappingConfiguration {
    /// The devices to create: the union over all profiles, plus the codes udev and SDL need
    /// to classify each device right (see `Capabilities`). A profile switch never needs a new device.
    public var capabilities: Capabilities {
        var result = Capabilities()
        for profile in profiles { result.formUnion(profile.capabilities) }
        result.addClassificationCodes()
        return result
    }
}
