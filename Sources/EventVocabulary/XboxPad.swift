/// The codes xpad gives a wired Xbox 360 pad (without its force feedback): what
/// games that only know that pad expect when `[gamepad] identity = "xbox360"`.
///
/// The one table of that pad: the config check refuses what it lacks, and the
/// virtual device is created with exactly these codes.
public enum XboxPad {
    /// A B X Y, shoulders, Back, Start, Guide, stick clicks; sticks -32768...32767,
    /// triggers 0...255 as `ABS_Z`/`ABS_RZ`, the d-pad as a hat (`FixedPad.xbox360`).
    public static var capabilities: DeviceCapabilities { FixedPad.xbox360.capabilities }

    /// The pad's buttons by name, for messages.
    public static var buttonNames: [String] { FixedPad.xbox360.buttonNames }

    /// The pad's axes that have `info`'s range (the sticks for `.stick`).
    public static func axes(withRangeOf info: AbsInfo) -> [UInt16] { FixedPad.xbox360.axes(withRangeOf: info) }

    /// The pad's axes with `info`'s range by name, for messages.
    public static func axisNames(withRangeOf info: AbsInfo) -> [String] { FixedPad.xbox360.axisNames(withRangeOf: info) }

    /// What of `codes` the pad lacks, by name; empty when the pad carries all of them.
    public static func foreignCodes(in codes: DeviceCapabilities) -> [String] { FixedPad.xbox360.foreignCodes(in: codes) }
}

extension AbsInfo {
    /// A trigger as xpad reports it: 0...255, released at 0.
    public static let trigger = AbsInfo(minimum: 0, maximum: 255)

    /// True when `other` spans the same values.
    func hasRange(of other: AbsInfo) -> Bool {
        minimum == other.minimum && maximum == other.maximum
    }
}
