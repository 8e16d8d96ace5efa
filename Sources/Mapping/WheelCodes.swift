import EventVocabulary

// Which wheel codes the scrolling touchpad modes write, said once for the capabilities a profile
// needs and for the check that the chosen device carries them.

/// The options of a touchpad mode that turns the finger into mouse-wheel motion: the wheels
/// `horizontal` picks, on `device`.
public protocol WheelOutputOptions {
    /// `horizontal`: whether sideways wheels are written.
    var horizontal: Bool { get set }
    /// `device`: the device the wheels are on.
    var device: OutputDeviceKind { get set }
    /// The `REL_*` codes the mode writes.
    var wheelCodes: [UInt16] { get }
}

extension ScrollOptions: WheelOutputOptions {
    /// `REL_WHEEL` and its hi-res twin, and `REL_HWHEEL` and its twin when `horizontal`.
    public var wheelCodes: [UInt16] {
        let vertical = [EventCode.relWheel, EventCode.relWheelHiRes]
        return horizontal ? vertical + [EventCode.relHwheel, EventCode.relHwheelHiRes] : vertical
    }
}

extension WheelOptions: WheelOutputOptions {
    /// The one wheel `horizontal` picks, with its hi-res twin.
    public var wheelCodes: [UInt16] {
        horizontal ? [EventCode.relHwheel, EventCode.relHwheelHiRes] : [EventCode.relWheel, EventCode.relWheelHiRes]
    }
}
