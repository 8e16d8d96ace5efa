/// `pointer = { ... }` in a profile: point at the screen. The controller's orientation relative
/// to its zero (the first orientation the engine sees, until a `"recenter"` action takes the
/// current one; the same zero tilt uses) moves an absolute pointer on a device of its own
/// (`AbsolutePointer`), smoothed by a 1 Euro filter per axis in degrees.
///
/// The zero points at the screen's centre; turning `field-of-view-x / 2` degrees left or right
/// reaches its edge, tipping `field-of-view-y / 2` up or down its top or bottom; beyond, the
/// pointer stays on the edge.
public struct PointerSettings: Hashable, Sendable {
    /// `field-of-view-x` (default 40.0): degrees of yaw that span the screen's width.
    public var fieldOfViewX: Double = 40.0
    /// `field-of-view-y` (default 25.0): degrees of pitch that span the screen's height.
    public var fieldOfViewY: Double = 25.0
    /// `min-cutoff` (default 0.5): the filter's cutoff at rest, in Hz; lower removes more tremor.
    public var minimumCutoff: Double = 0.5
    /// `beta` (default 0.3): how fast the cutoff rises with speed, in Hz per degree per second;
    /// higher lags less when moving fast.
    public var beta: Double = 0.3
    /// `d-cutoff` (default 1.0): the cutoff of the filter's speed estimate, in Hz.
    public var derivativeCutoff: Double = 1.0

    /// The defaults: tremor of a still hand (0.1 degree either way) shrinks 3.5-fold, to under a
    /// pixel's worth of a 1920-pixel screen; a 100-degree-per-second sweep trails by under half
    /// a degree once under way (`OneEuroFilterTests`).
    public init() {}

    /// A fresh filter with these parameters.
    var filter: OneEuroFilter {
        OneEuroFilter(minimumCutoff: minimumCutoff, beta: beta, derivativeCutoff: derivativeCutoff)
    }
}
