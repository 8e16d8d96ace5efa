import EventVocabulary
import Mapping

/// What a profile's settings may say, for an editor's choices: the buttons, the special actions,
/// every key code with the device it goes to, the touchpad modes with their options, and the
/// gyro's keys. The same lists the decoder checks against.
public enum ConfigVocabulary {
    /// The controller's buttons by their config names.
    public static let buttons = ControllerButton.allCases.map(\.name)
    /// The actions that are not event codes (`"profile:NAME"` is written with a profile's name).
    public static let specialActions = Action.specialNames.map(\.name)
    /// The prefix of a profile switch, `"profile:NAME"`.
    public static let profileSwitchPrefix = Action.profilePrefix
    /// A tap/hold table's keys.
    public static let tapHoldKeys = ConfigReader.tapHoldKeys
    /// Each touchpad mode with the options it takes besides `mode`.
    public static let touchpadModes = ConfigReader.touchpadOptions
    /// The keys of `gyro = { ... }`.
    public static let gyroKeys = ConfigReader.gyroKeys

    /// Every `EV_KEY` code a button may press, with the device it goes to (`gamepad`, `mouse`,
    /// `keyboard`), in code order.
    public static var keyCodes: [(name: String, device: String)] {
        EventCodeNames.allNames(type: EventCodeNames.key).compactMap { name in
            guard let code = EventCodeNames.resolve(name, types: [EventCodeNames.key])?.code,
                  let device = OutputDeviceKind.routeKey(code) else { return nil }
            return (name, device.description)
        }
    }
}
