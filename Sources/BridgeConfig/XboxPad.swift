import Mapping

/// The codes an Xbox 360 pad has under Linux's xpad driver: what games that
/// only know that pad expect when `[gamepad] identity = "xbox360"`.
enum XboxPad {
    /// A, B, X, Y, the shoulders, back, start, guide, the stick clicks, and the
    /// d-pad as the four trigger-happy buttons xpad can report it with.
    static let buttons: [UInt16] = [
        EventCode.btnSouth, EventCode.btnEast, EventCode.btnNorth, EventCode.btnWest, EventCode.btnTl, EventCode.btnTr,
        EventCode.btnSelect, EventCode.btnStart, EventCode.btnMode, EventCode.btnThumbl, EventCode.btnThumbr,
        EventCode.btnTriggerHappy1, EventCode.btnTriggerHappy2, EventCode.btnTriggerHappy3, EventCode.btnTriggerHappy4,
    ]

    /// The sticks, the triggers and the d-pad hat.
    static let axes: [UInt16] = [
        EventCode.absX, EventCode.absY, EventCode.absZ, EventCode.absRx, EventCode.absRy, EventCode.absRz,
        EventCode.absHat0x, EventCode.absHat0y,
    ]

    /// `buttons` by their printing names.
    static var buttonNames: [String] {
        buttons.compactMap { EventCodeNames.knownName(type: EventCodeNames.key, code: $0) }
    }

    /// `axes` by their printing names.
    static var axisNames: [String] {
        axes.compactMap { EventCodeNames.knownName(type: EventCodeNames.absolute, code: $0) }
    }
}
