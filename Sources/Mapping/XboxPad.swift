/// The codes xpad gives a wired Xbox 360 pad (without its force feedback): what
/// games that only know that pad expect when `[gamepad] identity = "xbox360"`.
///
/// The one table of that pad: the config check refuses what it lacks, and the
/// virtual device is created with exactly these codes.
public enum XboxPad {
    /// A B X Y, shoulders, Back, Start, Guide, stick clicks; sticks -32768...32767,
    /// triggers 0...255 as `ABS_Z`/`ABS_RZ`, the d-pad as a hat (xpad's default;
    /// its `dpad_to_buttons` variant is for dance mats).
    public static let capabilities = DeviceCapabilities(
        keys: [
            EventCode.btnSouth, EventCode.btnEast, EventCode.btnNorth, EventCode.btnWest,
            EventCode.btnTl, EventCode.btnTr, EventCode.btnSelect, EventCode.btnStart, EventCode.btnMode,
            EventCode.btnThumbl, EventCode.btnThumbr,
        ],
        absoluteAxes: [
            AbsoluteAxis(code: EventCode.absX, info: .stick), AbsoluteAxis(code: EventCode.absY, info: .stick),
            AbsoluteAxis(code: EventCode.absRx, info: .stick), AbsoluteAxis(code: EventCode.absRy, info: .stick),
            AbsoluteAxis(code: EventCode.absZ, info: .trigger), AbsoluteAxis(code: EventCode.absRz, info: .trigger),
            AbsoluteAxis(code: EventCode.absHat0x, info: .hat), AbsoluteAxis(code: EventCode.absHat0y, info: .hat),
        ])

    /// The pad's buttons by name, for messages.
    public static var buttonNames: [String] {
        capabilities.keys.map { EventCodeNames.name(type: EventType.key, code: $0) }
    }

    /// The pad's axes that have `info`'s range (the sticks for `.stick`).
    public static func axes(withRangeOf info: AbsInfo) -> [UInt16] {
        capabilities.absoluteAxes.filter { $0.info.hasRange(of: info) }.map(\.code)
    }

    /// The pad's axes with `info`'s range by name, for messages.
    public static func axisNames(withRangeOf info: AbsInfo) -> [String] {
        axes(withRangeOf: info).map { EventCodeNames.name(type: EventType.abs, code: $0) }
    }

    /// What of `codes` the pad lacks, by name (an axis with another range as
    /// `ABS_Z as -32768...32767`); empty when the pad carries all of them.
    public static func foreignCodes(in codes: DeviceCapabilities) -> [String] {
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
}

extension AbsInfo {
    /// A trigger as xpad reports it: 0...255, released at 0.
    public static let trigger = AbsInfo(minimum: 0, maximum: 255)

    /// True when `other` spans the same values.
    func hasRange(of other: AbsInfo) -> Bool {
        minimum == other.minimum && maximum == other.maximum
    }
}
