import EventVocabulary
import Timebase

/// What the touchpad does in a profile.
///
/// TOML: `touchpad = { mode = "stick", ... }` (or a `[profile.NAME.touchpad]` table) with
/// `mode` one of `"none"`, `"stick"`, `"dpad"`, `"trackpad"`, `"scroll"`, `"wheel"`, `"flick"`, `"touchpad"` and that
/// mode's options. No `touchpad` key means `"none"`.
public enum TouchpadMode: Hashable, Sendable {
    /// `"none"`: the touchpad is ignored (the click is still a button).
    case none
    /// `"stick"`: an absolute analog stick.
    case stick(StickOptions)
    /// `"dpad"`: a directional pad.
    case dpad(DpadOptions)
    /// `"trackpad"`: a relative mouse.
    case trackpad(TrackpadOptions)
    /// `"scroll"`: a scroll wheel driven by finger motion.
    case scroll(ScrollOptions)
    /// `"wheel"`: circular scrolling around the rim, like an iPod's click wheel.
    case wheel(WheelOptions)
    /// `"flick"`: flick stick on the rim: the camera turns to where the thumb lands, then follows it round.
    case flick(FlickOptions)
    /// `"touchpad"`: the pad as a real touchpad (the touchpad device, `TouchSurface`): the
    /// desktop's libinput moves the pointer, taps and scrolls with its own settings.
    case touchpad

    /// The TOML `mode` names.
    public static let modeNames = ["none", "stick", "dpad", "trackpad", "scroll", "wheel", "flick", "touchpad"]
}

/// How the round stick's output is shaped.
public enum StickShape: String, Hashable, Sendable, CaseIterable {
    /// `"circle"`: the output stays inside the circle (a diagonal reaches about 0.71 per axis).
    case circle
    /// `"square"`: the circle is stretched to the square, so a diagonal reaches both axes' ends.
    case square
}

/// `mode = "stick"`: the finger's position relative to the pad's centre is the stick.
///
/// Output -32768...32767 on `x-axis`/`y-axis` (up and left negative), centred at rest and on lift.
public struct StickOptions: Hashable, Sendable {
    /// `deadzone` (default 0.1): radius, as a fraction of the pad's radius, that reads as centred;
    /// the output grows from 0 at its edge.
    public var deadzone: Double = 0.1
    /// `saturation` (default 0.9): radius, as a fraction of the pad's radius, where the output is full.
    public var saturation: Double = 0.9
    /// `shape` (default `"circle"`).
    public var shape: StickShape = .circle
    /// `x-axis` (default `"ABS_X"`): the horizontal axis.
    public var xAxis: UInt16 = EventCode.absX
    /// `y-axis` (default `"ABS_Y"`): the vertical axis.
    public var yAxis: UInt16 = EventCode.absY
    /// `device` (default `"gamepad"`): the device the axes are on.
    public var device: OutputDeviceKind = .gamepad

    /// The defaults.
    public init() {}
}

/// When a touchpad d-pad presses its direction.
public enum DpadActivation: String, Hashable, Sendable, CaseIterable {
    /// `"click"`: clicking the pad presses the direction under the finger. The click's own binding
    /// then acts only for a click inside the dead zone (the centre).
    case click
    /// `"touch"`: touching presses the direction under the finger; the click keeps its binding.
    case touch
}

/// What a touchpad d-pad emits.
public enum DpadOutput: String, Hashable, Sendable, CaseIterable {
    /// `"buttons"`: `BTN_DPAD_UP`/`DOWN`/`LEFT`/`RIGHT`.
    case buttons
    /// `"hat"`: `ABS_HAT0X`/`ABS_HAT0Y`, -1...1.
    case hat
}

/// `mode = "dpad"`: the pad split into sectors around its centre.
public struct DpadOptions: Hashable, Sendable {
    /// `directions` (default 4): 4 (up, right, down, left) or 8 (with diagonals, which press two).
    public var directions: Int = 4
    /// `activation` (default `"click"`).
    public var activation: DpadActivation = .click
    /// `output` (default `"buttons"`).
    public var output: DpadOutput = .buttons
    /// `deadzone` (default 0.25): radius, as a fraction of the pad's radius, with no direction.
    public var deadzone: Double = 0.25
    /// `device` (default `"gamepad"`): the device the buttons or the hat are on.
    public var device: OutputDeviceKind = .gamepad

    /// The defaults.
    public init() {}
}

/// `mode = "trackpad"`: finger motion moves the pointer (`REL_X`/`REL_Y`).
///
/// Landing never moves the pointer, lifting emits nothing, and fractions of a count carry over.
/// Counts per report = `speed` x 1000 x (pad widths moved) x (finger speed in pad widths per second) ^ (`acceleration` - 1),
/// the acceleration factor kept within 0.2...5. The finger's speed goes by the controller's own
/// clock (the packets' stamps), so packets that Bluetooth delivers bunched move the pointer as
/// far as evenly spaced ones; see `SampleInterval`.
public struct TrackpadOptions: Hashable, Sendable {
    /// `speed` (default 1.0): 1.0 moves the pointer 1000 counts for a slide across the whole pad.
    public var speed: Double = 1.0
    /// `acceleration` (default 1.0): the exponent of the acceleration curve; 1.0 is linear, 1.5 is brisk.
    public var acceleration: Double = 1.0
    /// `device` (default `"mouse"`): the device the pointer motion goes to.
    public var device: OutputDeviceKind = .mouse

    /// The defaults.
    public init() {}
}

/// `mode = "scroll"`: finger motion scrolls, with `REL_WHEEL`/`REL_HWHEEL` and their `_HI_RES` twins (120 per detent).
public struct ScrollOptions: Hashable, Sendable {
    /// `detents` (default 8.0): wheel detents for a slide across the whole pad.
    public var detents: Double = 8.0
    /// `natural` (default false): false scrolls down when the finger moves down (a wheel);
    /// true moves the content with the finger (scrolls up when it moves down).
    public var natural: Bool = false
    /// `horizontal` (default true): sideways motion scrolls sideways too.
    public var horizontal: Bool = true
    /// `device` (default `"mouse"`): the device the wheels are on.
    public var device: OutputDeviceKind = .mouse

    /// The defaults.
    public init() {}
}

/// `mode = "wheel"`: circling the rim scrolls, clockwise down (or right).
public struct WheelOptions: Hashable, Sendable {
    /// `detents` (default 16.0): wheel detents per full turn.
    public var detents: Double = 16.0
    /// `reverse` (default false): clockwise scrolls up (or left) instead.
    public var reverse: Bool = false
    /// `horizontal` (default false): emit `REL_HWHEEL` instead of `REL_WHEEL`.
    public var horizontal: Bool = false
    /// `deadzone` (default 0.4): radius, as a fraction of the pad's radius, inside which the finger turns nothing.
    public var deadzone: Double = 0.4
    /// `device` (default `"mouse"`): the device the wheel is on.
    public var device: OutputDeviceKind = .mouse

    /// The defaults.
    public init() {}
}

/// `mode = "flick"`: flick stick on the pad's rim (JoyShockMapper's flick stick, FLICK_TIME,
/// FLICK_SNAP_MODE, FLICK_SNAP_STRENGTH). Touching the rim turns the camera to the touched
/// direction (up is straight ahead, right a quarter turn right, down a half turn) within
/// `flick-time`; then moving along the rim turns it 1:1. The turn is mouse motion through the
/// game's `counts-per-degree`.
public struct FlickOptions: Hashable, Sendable {
    /// `rim` (default 0.6): how far from the centre, as a fraction of the pad's radius, a touch
    /// counts as on the rim.
    public var rim: Double = 0.6
    /// `flick-time` (default 100 ms): how long the flick's turn takes.
    public var flickTime = TimeSpan.milliseconds(100)
    /// `snap` (default none): flicks snap to 4 or 8 directions.
    public var snap = FlickSnap.none
    /// `snap-strength` (default 1): how far a flick moves towards its snapped direction, 0...1.
    public var snapStrength: Double = 1
    /// `counts-per-degree` (default: the profile's gyro's, else the desktop's 17.45).
    public var countsPerDegree: Double?

    /// The defaults.
    public init() {}

    /// The flick's turn for a touch at `degrees` (0 up, clockwise), snapped as set.
    public func snapped(_ degrees: Double) -> Double {
        guard let step = snap.step else { return degrees }
        let nearest = (degrees / step).rounded() * step
        return degrees + (nearest - degrees) * snapStrength
    }
}

/// `snap`: the directions a flick snaps to.
public enum FlickSnap: String, Hashable, Sendable, CaseIterable {
    /// `"none"`.
    case none
    /// `"4"`: ahead, right, behind, left.
    case four = "4"
    /// `"8"`: the diagonals too.
    case eight = "8"

    /// Degrees between the directions; nil for none.
    var step: Double? {
        switch self {
        case .none: nil
        case .four: 90
        case .eight: 45
        }
    }
}
