/// A gamepad whose codes are fixed by the pad it presents itself as: the
/// config check refuses what it lacks, and the device is created with exactly
/// these codes. One table per such identity (`GamepadIdentity.fixedPad`).
public struct FixedPad: Sendable {
    /// The pad in a sentence: "an Xbox 360 pad".
    public let description: String
    /// The `[gamepad] identity` that chooses it.
    public let identity: GamepadIdentity
    /// Its codes: sticks -32768...32767, triggers 0...255 as `ABS_Z`/`ABS_RZ`, the d-pad as a hat.
    public let capabilities: DeviceCapabilities

    /// The pad's buttons by name, for messages.
    public var buttonNames: [String] {
        capabilities.keys.map { EventCodeNames.name(type: EventType.key, code: $0) }
    }

    /// The pad's axes that have `info`'s range (the sticks for `.stick`).
    public func axes(withRangeOf info: AbsInfo) -> [UInt16] {
        capabilities.absoluteAxes.filter { $0.info.hasRange(of: info) }.map(\.code)
    }

    /// The pad's axes with `info`'s range by name, for messages.
    public func axisNames(withRangeOf info: AbsInfo) -> [String] {
        axes(withRangeOf: info).map { EventCodeNames.name(type: EventType.abs, code: $0) }
    }

    /// What of `codes` the pad lacks, by name (an axis with another range as
    /// `ABS_Z as -32768...32767`); empty when the pad carries all of them.
    public func foreignCodes(in codes: DeviceCapabilities) -> [String] {
        var foreign = codes.keys.filter { !capabilities.hasKey($0) }.map { EventCodeNames.name(type: EventType.key, code: $0) }
        foreign += codes.relativeAxes.map { EventCodeNames.name(type: EventType.rel, code: $0) }
        for axis in codes.absoluteAxes {
            let name = EventCodeNames.name(type: EventType.abs, code: axis.code)
            guard let padAxis = capabilities.absInfo(axis.code) else {
                foreign.append(name)
                continue
            }
            if !padAxis.hasRange(of: axis.info) {
                foreign.append("\(name) as \(axis.info.minimum)...\(axis.info.maximum)")
            }
        }
        return foreign
    }

    /// The axes both pads have: two sticks, two triggers, the hat.
    static let padAxes = [
        AbsoluteAxis(code: EventCode.absX, info: .stick), AbsoluteAxis(code: EventCode.absY, info: .stick),
        AbsoluteAxis(code: EventCode.absRx, info: .stick), AbsoluteAxis(code: EventCode.absRy, info: .stick),
        AbsoluteAxis(code: EventCode.absZ, info: .trigger), AbsoluteAxis(code: EventCode.absRz, info: .trigger),
        AbsoluteAxis(code: EventCode.absHat0x, info: .hat), AbsoluteAxis(code: EventCode.absHat0y, info: .hat),
    ]

    /// The buttons both pads have: the four face buttons, shoulders, select/start/mode, stick clicks.
    static let padButtons = [
        EventCode.btnSouth, EventCode.btnEast, EventCode.btnNorth, EventCode.btnWest,
        EventCode.btnTl, EventCode.btnTr, EventCode.btnSelect, EventCode.btnStart, EventCode.btnMode,
        EventCode.btnThumbl, EventCode.btnThumbr,
    ]

    /// What xpad gives a wired Xbox 360 pad (without its force feedback): A B X Y,
    /// shoulders, Back, Start, Guide, stick clicks, sticks, triggers, the d-pad as
    /// a hat (xpad's default; its `dpad_to_buttons` variant is for dance mats).
    public static let xbox360 = FixedPad(
        description: "an Xbox 360 pad", identity: .xbox360,
        capabilities: DeviceCapabilities(keys: padButtons, absoluteAxes: padAxes))

    /// What hid-playstation gives a DualSense's gamepad node: the Xbox pad's
    /// codes and L2/R2 as buttons besides their axes (`ps_gamepad_create`). The
    /// touchpad's click is the DualSense's touchpad node's, not the pad's.
    public static let dualsense = FixedPad(
        description: "a DualSense", identity: .dualsense,
        capabilities: DeviceCapabilities(keys: padButtons + [EventCode.btnTl2, EventCode.btnTr2], absoluteAxes: padAxes))
}

extension GamepadIdentity {
    /// The pad whose codes this identity fixes, or nil when the profile's codes make the device.
    public var fixedPad: FixedPad? {
        switch self {
        case .default: nil
        case .xbox360: .xbox360
        case .dualsense: .dualsense
        }
    }
}
