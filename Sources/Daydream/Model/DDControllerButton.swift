import Timebase

/// A closure called with a button and whether it is pressed.
public typealias DDControllerButtonHandler = @MainActor (DDControllerButton, Bool) -> Void

/// One of the controller's buttons: the touchpad click, app, home, volume up or volume down.
///
/// Handlers run on the main thread, in this order within one packet:
/// `valueChangedHandler`, then `pressedChangedHandler` when the state changed.
@MainActor
public final class DDControllerButton {
    /// Which button this is.
    public let kind: Kind

    /// Called on every packet with the current state (about 60 times a second), like the iOS library.
    public var valueChangedHandler: DDControllerButtonHandler?
    /// Called only when the pressed state changes.
    public var pressedChangedHandler: DDControllerButtonHandler?
    /// Called once per press, when the button has been held for `longPressDuration`.
    /// It comes from a timer, so it fires even when the controller stops sending.
    public var longPressHandler: DDControllerButtonHandler?

    /// How long a press must last to be a long press; 1 s by default.
    public var longPressDuration: TimeSpan = .seconds(1)

    /// Whether the button is down.
    public private(set) var isPressed = false
    /// 1 when pressed, 0 when not (the buttons are digital).
    public var value: Float { isPressed ? 1 : 0 }

    private let scheduler: any DeadlineScheduler
    private var longPressTimer: ScheduledTimer?

    /// The controller's five buttons.
    public enum Kind: String, CaseIterable, Sendable {
        case click, app, home, volumeUp = "volume-up", volumeDown = "volume-down"
    }

    init(kind: Kind, scheduler: any DeadlineScheduler) {
        self.kind = kind
        self.scheduler = scheduler
    }

    /// Applies the state from one packet received at `time`.
    func update(pressed: Bool, at time: MonotonicTime) {
        let changed = pressed != isPressed
        isPressed = pressed
        if changed {
            longPressTimer?.cancel()
            longPressTimer = nil
            if pressed {
                longPressTimer = scheduler.schedule(at: time + longPressDuration) { [weak self] in
                    self?.fireLongPress()
                }
            }
        }
        valueChangedHandler?(self, pressed)
        if changed { pressedChangedHandler?(self, pressed) }
    }

    /// Releases the button (for a disconnect), calling the handlers if it was down.
    func release() {
        guard isPressed else { return }
        longPressTimer?.cancel()
        longPressTimer = nil
        isPressed = false
        valueChangedHandler?(self, false)
        pressedChangedHandler?(self, false)
    }

    private func fireLongPress() {
        longPressTimer = nil
        guard isPressed else { return }
        longPressHandler?(self, true)
    }
}
