/// The gamepad's identity towards SDL and games.
public enum GamepadIdentity: String, Hashable, Sendable, CaseIterable {
    /// `"default"`: the bridge's own name and vendor/product.
    case `default`
    /// `"xbox360"`: "Microsoft X-Box 360 pad", 045e:028e, for games that only know Xbox pads.
    case xbox360
    /// `"dualsense"`: a virtual DualSense over `/dev/uhid` with Sony's ids (054c:0ce6), so the
    /// kernel's hid-playstation makes the pad, its motion sensors, its touchpad and a battery.
    case dualsense
}
