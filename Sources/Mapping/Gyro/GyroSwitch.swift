import DaydreamProtocol

/// When the gyro aims (JoyShockMapper's GYRO_ON, GYRO_OFF, NO_GYRO_BUTTON): always, while a button
/// is held, except while one is held or a finger is on the pad, or toggled by a button. The
/// button keeps its own binding too.
public enum GyroSwitch: Hashable, Sendable {
    /// No `on`, `off` or `toggle`: always on.
    case always
    /// `on = "BUTTON"`: on while it is held.
    case onWhileHeld(ControllerButton)
    /// `off = "BUTTON"`: off while it is held.
    case offWhileHeld(ControllerButton)
    /// `off = "touch"`: off while a finger is on the pad (the thumb resting there), from the
    /// packet the finger lands in.
    case offWhileTouched
    /// `toggle = "BUTTON"`: each press switches it; on at first.
    case toggle(ControllerButton)

    /// Whether the gyro aims for `buttons` and `touching`, given whether a toggle has it on;
    /// `toggledOn` flips on each press of a toggle's button (`previous` is the last packet's buttons).
    public func isOn(buttons: DaydreamButtons, previous: DaydreamButtons, touching: Bool, toggledOn: inout Bool) -> Bool {
        switch self {
        case .always: return true
        case .onWhileHeld(let button): return buttons.contains(button.mask)
        case .offWhileHeld(let button): return !buttons.contains(button.mask)
        case .offWhileTouched: return !touching
        case .toggle(let button):
            if buttons.contains(button.mask) && !previous.contains(button.mask) { toggledOn.toggle() }
            return toggledOn
        }
    }
}
