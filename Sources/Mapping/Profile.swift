import DaydreamProtocol
import EventVocabulary
import Timebase

/// `air-mouse = { ... }` in a profile: the gyro moves the pointer (`REL_X`/`REL_Y` on the mouse).
///
/// Turning the controller left/right (about its vertical y axis) moves the pointer left/right;
/// tipping it up/down (about its x axis) moves it up/down.
public struct AirMouseSettings: Hashable, Sendable {
    /// `speed` (default 1.0): 1.0 moves the pointer 1000 counts per radian turned.
    public var speed: Double = 1.0
    /// `deadzone` (default 0.05): rotation rates below this many rad/s count as drift and move nothing;
    /// faster ones have it subtracted, so motion starts smoothly.
    public var deadzone: Double = 0.05
    /// `always` (default false): point all the time; otherwise only while an `"air-mouse"` action is held.
    public var always: Bool = false
    /// `invert-x` (default false): mirror horizontal motion.
    public var invertX: Bool = false
    /// `invert-y` (default false): mirror vertical motion.
    public var invertY: Bool = false
    /// `device` (default `"mouse"`): the device the pointer motion goes to.
    public var device: OutputDeviceKind = .mouse

    /// The defaults.
    public init() {}
}

/// Which rotation of the controller drives the tilt axis.
public enum TiltSource: String, Hashable, Sendable, CaseIterable {
    /// `"roll"`: rolling right (clockwise seen from behind) is positive. Steering.
    case roll
    /// `"pitch"`: tipping the tip up is negative (like pushing a stick up).
    case pitch
    /// `"yaw"`: turning right is positive.
    case yaw
}

/// `tilt = { ... }` in a profile: the controller's orientation, relative to its zero (the first
/// orientation the engine sees, until a `"recenter"` action takes the current one),
/// drives an absolute axis on the gamepad, -32768...32767.
public struct TiltSettings: Hashable, Sendable {
    /// `axis` (default `"ABS_X"`): the axis written.
    public var axis: UInt16 = EventCode.absX
    /// `source` (default `"roll"`).
    public var source: TiltSource = .roll
    /// `range` (default 45.0): degrees from zero that give full deflection.
    public var range: Double = 45.0
    /// `deadzone` (default 0.0): degrees around zero that read as centred; output grows from its edge.
    public var deadzone: Double = 0.0
    /// `invert` (default false): flip the sign.
    public var invert: Bool = false
    /// `device` (default `"gamepad"`): the device the axis is on.
    public var device: OutputDeviceKind = .gamepad

    /// The defaults.
    public init() {}
}

/// One profile: `[profile.NAME]`.
///
/// Keys: `click`, `app`, `home`, `volume-up`, `volume-down`, `trigger`, `back` (each a `ButtonBinding`; absent = unbound),
/// `touchpad` (`TouchpadMode`), `air-mouse` (`AirMouseSettings`), `tilt` (`TiltSettings`; absent = off),
/// `motion-sensors`, `pointer` (`PointerSettings`; absent = off), `applications` (the focused
/// applications the profile follows), `lend` (the controller is lent to another program), and the table `[profile.NAME.chords]` (`Chord`s).
public struct Profile: Hashable, Sendable {
    /// The name after `profile.`.
    public var name: String
    /// `click`: the touchpad press.
    public var click: ButtonBinding?
    /// `app`.
    public var app: ButtonBinding?
    /// `home`.
    public var home: ButtonBinding?
    /// `volume-up`.
    public var volumeUp: ButtonBinding?
    /// `volume-down`.
    public var volumeDown: ButtonBinding?
    /// `trigger` (Gear VR, Oculus Go).
    public var trigger: ButtonBinding?
    /// `back` (Gear VR, Oculus Go).
    public var back: ButtonBinding?
    /// `touchpad` (default `"none"`).
    public var touchpad: TouchpadMode
    /// `air-mouse` (defaults as in `AirMouseSettings`; pointing needs `always = true` or an `"air-mouse"` action).
    public var airMouse: AirMouseSettings
    /// `tilt` (absent = no tilt axis).
    public var tilt: TiltSettings?
    /// `[profile.NAME.chords]`, in file order.
    public var chords: [Chord]
    /// `motion-sensors = true`: the controller's acceleration and angular rate go to the motion-sensor device.
    public var motionSensors: Bool
    /// `pointer = { ... }` (absent = no absolute pointer).
    public var pointer: PointerSettings?
    /// `gyro = { ... }` (absent = no gyro aiming).
    public var gyro: GyroSettings?
    /// `applications = ["steam_app_1245620", "xonotic*"]`: the profile is switched to while one
    /// of these has the focus.
    public var applications: [ApplicationPattern] = []
    /// `lend = true`: while a controller is in this profile, the bridge lends it to another
    /// program (Monado), as `daydream-bridge lend` does, and takes it back when it leaves it.
    public var lend = false

    /// A profile with everything given; unbound by default.
    public init(
        name: String,
        click: ButtonBinding? = nil, app: ButtonBinding? = nil, home: ButtonBinding? = nil,
        volumeUp: ButtonBinding? = nil, volumeDown: ButtonBinding? = nil,
        trigger: ButtonBinding? = nil, back: ButtonBinding? = nil,
        touchpad: TouchpadMode = .none, airMouse: AirMouseSettings = AirMouseSettings(),
        tilt: TiltSettings? = nil, chords: [Chord] = [], motionSensors: Bool = false, pointer: PointerSettings? = nil,
        gyro: GyroSettings? = nil
    ) {
        self.name = name
        self.click = click
        self.app = app
        self.home = home
        self.volumeUp = volumeUp
        self.volumeDown = volumeDown
        self.trigger = trigger
        self.back = back
        self.touchpad = touchpad
        self.airMouse = airMouse
        self.tilt = tilt
        self.chords = chords
        self.motionSensors = motionSensors
        self.pointer = pointer
        self.gyro = gyro
    }

    /// The binding of one button.
    public subscript(button: ControllerButton) -> ButtonBinding? {
        get {
            switch button {
            case .click: click
            case .app: app
            case .home: home
            case .volumeUp: volumeUp
            case .volumeDown: volumeDown
            case .trigger: trigger
            case .back: back
            }
        }
        set {
            switch button {
            case .click: click = newValue
            case .app: app = newValue
            case .home: home = newValue
            case .volumeUp: volumeUp = newValue
            case .volumeDown: volumeDown = newValue
            case .trigger: trigger = newValue
            case .back: back = newValue
            }
        }
    }
}

/// A whole configuration: what the TOML file describes.
///
/// - `[bridge] profile` -> `defaultProfile` (default: the first profile);
/// - `[bridge] next-profile` -> `nextProfileChord` (a chord like `"home+app"` that cycles
///   profiles in every profile; default: none);
/// - `[bridge] hold-time` -> `holdTime` (default `"1s"`; durations are `"750ms"`, `"1s"`, `"1.5s"`);
/// - `[bridge] tap-time` -> `tapTime` (default `"120ms"`);
/// - `[bridge] chord-window` -> `chordWindow` (default `"40ms"`);
/// - `[gamepad] identity` -> `gamepadIdentity` (default `"default"`);
/// - `[profile.NAME]` -> `profiles`, in file order;
/// - `[controller."AA:BB:CC:DD:EE:FF"] profile = "NAME"` -> `controllerProfiles`.
public struct MappingConfiguration: Hashable, Sendable {
    /// The profiles, in file order (the order `next-profile` cycles through).
    public var profiles: [Profile]
    /// The profile a new controller starts in; nil means the first.
    public var defaultProfile: String?
    /// The chord that cycles profiles in every profile, or nil.
    public var nextProfileChord: DaydreamButtons?
    /// How long a press must last to be a hold (default 1 s).
    public var holdTime: TimeSpan
    /// How long a tap holds its action down before releasing it, and the least any action stays
    /// down (default 120 ms).
    public var tapTime: TimeSpan
    /// How long a chord member waits for the rest of its chord before acting as itself (default 40 ms).
    public var chordWindow: TimeSpan
    /// The gamepad identity.
    public var gamepadIdentity: GamepadIdentity
    /// Profile names by controller address (`AA:BB:CC:DD:EE:FF`, compared without regard to case).
    public var controllerProfiles: [String: String]

    /// The built-in hold time: 1 s, like the iOS library's long press.
    public static let defaultHoldTime = TimeSpan.seconds(1)

    /// The built-in tap time: 120 ms, over three frames of a 30 fps game. A game that reads the
    /// buttons once a frame sees a press only if it spans one of its reads; 120 ms spans at
    /// least two even when a frame runs late (a 30 fps game dropping to 20 fps), and is about
    /// as long as a quick press of a real button, so games that want a press to last more
    /// than one frame take it too. The 20 ms over 100 ms keep a game's own measure of the
    /// press (SDL's event times, taken when it reads them) at 100 ms or more.
    public static let defaultTapTime = TimeSpan.milliseconds(120)

    /// The built-in chord window: 40 ms. People pressing two buttons "together" land them
    /// within a few tens of milliseconds; the controller reports every 12.5-17 ms, so 40 ms
    /// spans two or three reports. Short enough that a chord member pressed for 150 ms is
    /// still down for 110 ms.
    public static let defaultChordWindow = TimeSpan.milliseconds(40)

    /// A configuration with everything given.
    public init(
        profiles: [Profile],
        defaultProfile: String? = nil,
        nextProfileChord: DaydreamButtons? = nil,
        holdTime: TimeSpan = MappingConfiguration.defaultHoldTime,
        tapTime: TimeSpan = MappingConfiguration.defaultTapTime,
        chordWindow: TimeSpan = MappingConfiguration.defaultChordWindow,
        gamepadIdentity: GamepadIdentity = .default,
        controllerProfiles: [String: String] = [:]
    ) {
        self.profiles = profiles
        self.defaultProfile = defaultProfile
        self.nextProfileChord = nextProfileChord
        self.holdTime = holdTime
        self.tapTime = tapTime
        self.chordWindow = chordWindow
        self.gamepadIdentity = gamepadIdentity
        self.controllerProfiles = controllerProfiles
    }

    /// The first profile (in file order) with a pattern that matches one of `ids`, the focused
    /// application's ids (its Wayland app_id, or its X11 WM_CLASS class and instance); nil when
    /// none does.
    public func profile(forApplication ids: [String]) -> Profile? {
        profiles.first { profile in profile.applications.contains { pattern in ids.contains(where: pattern.matches) } }
    }

    /// The profile with this name, or nil.
    public func profile(named name: String) -> Profile? {
        profiles.first(where: { $0.name == name })
    }

    /// The profile a controller starts in: its own by address, else the default, else the first.
    public func startingProfileName(forController address: String?) -> String? {
        if let address {
            let wanted = address.uppercased()
            if let entry = controllerProfiles.first(where: { $0.key.uppercased() == wanted }), profile(named: entry.value) != nil {
                return entry.value
            }
        }
        if let name = defaultProfile, profile(named: name) != nil { return name }
        return profiles.first?.name
    }
}
