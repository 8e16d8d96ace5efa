import EventVocabulary

// Which wheel codes the scrolling touchpad modes write, said once for the capabilities a profile
// needs and for the check that the chosen device carries them.

extension ScrollOptions {
    /// `REL_WHEEL` and its hi-res twin, and `REL_HWHEEL` and its twin when `horizontal`.
    public var wheelCodes: [UInt16] {
        let vertical = [EventCode.relWheel, EventCode.relWheelHiRes]
        return horizontal ? vertical + [EventCode.relHwheel, EventCode.relHwheelHiRes] : vertical
    }
}

extension WheelOptions {
    /// The one wheel `horizontal` picks, with its hi-res twin.
    public var wheelCodes: [UInt16] {
        horizontal ? [EventCode.relHwheel, EventCode.relHwheelHiRes] : [EventCode.relWheel, EventCode.relWheelHiRes]
    }
}
