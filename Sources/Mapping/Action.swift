import DaydreamProtocol
import Timebase

/// One of the controller buttons a profile binds: the Daydream's five, and the trigger and
/// back button of the Gear VR and Oculus Go controllers (any profile may bind them; a
/// controller without them never presses them).
///
/// TOML key names: `click` (the touchpad press), `app`, `home`, `volume-up`, `volume-down`,
/// `trigger`, `back`; the same names join chords (`"home+app"`).
public enum ControllerButton: Int, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case click = 0
    case app = 1
    case home = 2
    case volumeUp = 3
    case volumeDown = 4
    case trigger = 5
    case back = 6

    /// The TOML name.
    public var name: String {
        switch self {
        case .click: "click"
        case .app: "app"
        case .home: "home"
        case .volumeUp: "volume-up"
        case .volumeDown: "volume-down"
        case .trigger: "trigger"
        case .back: "back"
        }
    }

    /// The button with this TOML name, or nil.
    public init?(name: String) {
        guard let button = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = button
    }

    /// The bit in `DaydreamButtons`.
    public var mask: DaydreamButtons {
        switch self {
        case .click: .click
        case .app: .app
        case .home: .home
        case .volumeUp: .volumeUp
        case .volumeDown: .volumeDown
        case .trigger: .trigger
        case .back: .back
        }
    }

    public var description: String { name }
}

/// What a button, a chord, a tap or a hold does.
///
/// TOML: a code name (`"BTN_SOUTH"`), a list of code names (a combination, `["KEY_LEFTCTRL", "KEY_C"]`),
/// or one of the special names in lower case: `"air-mouse"`, `"next-profile"`, `"previous-profile"`,
/// `"recenter"`, `"gyro-calibrate"`, `"none"`, or `"profile:NAME"`.
public enum Action: Hashable, Sendable {
    /// `EV_KEY` codes pressed in this order and released in reverse order; one code for a plain key.
    /// Each code goes to the device `OutputDeviceKind.routeKey` names.
    case keys([UInt16])
    /// `"air-mouse"`: the gyro moves the pointer while this is held (see `AirMouseSettings`).
    case airMouse
    /// `"next-profile"`: switch to the next profile in configuration order, wrapping around.
    case nextProfile
    /// `"previous-profile"`: switch to the previous profile, wrapping around.
    case previousProfile
    /// `"profile:NAME"`: switch to the named profile.
    case profile(String)
    /// `"recenter"`: take the current orientation as the tilt's zero.
    case recenter
    /// `"gyro-calibrate"`: measure the gyro's bias while the controller is held still (2 s).
    case calibrateGyro
    /// `"none"`: do nothing (swallows the button).
    case none

    /// The special actions by TOML name (everything but `keys` and `profile:NAME`).
    public static let specialNames: [(name: String, action: Action)] = [
        ("air-mouse", .airMouse), ("next-profile", .nextProfile), ("previous-profile", .previousProfile),
        ("recenter", .recenter), ("gyro-calibrate", .calibrateGyro), ("none", .none),
    ]

    /// The prefix of `"profile:NAME"`.
    public static let profilePrefix = "profile:"

    /// The action a special name (or `profile:NAME`) stands for; nil for anything else, such as code names.
    public init?(specialName: String) {
        if let entry = Self.specialNames.first(where: { $0.name == specialName }) {
            self = entry.action
        } else if specialName.hasPrefix(Self.profilePrefix), specialName.count > Self.profilePrefix.count {
            self = .profile(String(specialName.dropFirst(Self.profilePrefix.count)))
        } else {
            return nil
        }
    }

    /// True for actions that last while held (keys, air mouse); false for one-shot actions.
    public var isHeld: Bool {
        switch self {
        case .keys, .airMouse: true
        default: false
        }
    }
}

/// What one button does in a profile.
///
/// TOML: `click = ACTION` (plain: acts at once on press, releases with the button; a chord
/// member first waits the chord window), or
/// `click = { tap = ACTION, hold = ACTION, hold-time = "500ms" }` (each key optional;
/// `hold-time` defaults to `[bridge] hold-time`).
public enum ButtonBinding: Hashable, Sendable {
    /// Acts on press, releases on release, with no delay (after the chord window for a chord member).
    case plain(Action)
    /// Waits: released before the hold time, the tap acts (pressed at the release, held for the
    /// configuration's tap time); still held at the hold time, the hold acts and lasts until
    /// the button is released.
    /// A press that reaches the hold time with no hold action does nothing.
    case tapHold(tap: Action?, hold: Action?, holdTime: TimeSpan?)
}

/// Buttons pressed together.
///
/// TOML: in `[profile.NAME.chords]`, `"home+app" = ACTION` (at least two button names joined
/// by `+`). See `MappingEngine` for how the members' own bindings behave.
public struct Chord: Hashable, Sendable {
    /// The member buttons (two or more).
    public var buttons: DaydreamButtons
    /// What happens when all members are down together.
    public var action: Action

    /// A chord of these buttons doing this action.
    public init(buttons: DaydreamButtons, action: Action) {
        self.buttons = buttons
        self.action = action
    }

    /// Parses `"home+app"`; nil when a name is unknown, repeated, or fewer than two are given.
    public static func buttons(named text: String) -> DaydreamButtons? {
        var result: DaydreamButtons = []
        var count = 0
        for part in text.split(separator: "+", omittingEmptySubsequences: false) {
            guard let button = ControllerButton(name: String(part)), !result.contains(button.mask) else { return nil }
            result.insert(button.mask)
            count += 1
        }
        return count >= 2 ? result : nil
    }

    /// `"home+app"` for a set of buttons, in `ControllerButton` order.
    public static func name(of buttons: DaydreamButtons) -> String {
        ControllerButton.allCases.filter { buttons.contains($0.mask) }.map(\.name).joined(separator: "+")
    }
}
