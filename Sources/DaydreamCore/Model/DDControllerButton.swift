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
    public var valueChangedHandler: DDControllerButtonHandler? {
        get { handlers.valueChanged }
        set { handlers.valueChanged = newValue }
    }
    /// Called only when the pressed state changes.
    public var pressedChangedHandler: DDControllerButtonHandler? {
        get { handlers.pressedChanged }
        set { handlers.pressedChanged = newValue }
    }
    /// Called once per press, when the button has been held for `longPressDuration`.
    /// It comes from a timer, so it fires even when the controller stops sending.
    public var longPressHandler: DDControllerButtonHandler? {
        get { handlers.longPress }
        set { handlers.longPress = newValue }
    }

    /// How long a press must last to be a long press; 1 s by default.
    public var longPressDuration: TimeSpan = .seconds(1)

    /// Whether the button is down.
    public var isPressed: Bool { pressed }
    /// 1 when pressed, 0 when not (the buttons are digital).
    public var value: Float { pressed ? 1 : 0 }

    // Private storage behind public accessors: with every access inside this module, the
    // optimiser can prove they never overlap and drop the run-time exclusivity checks that
    // public stored properties pay on every packet.
    private var pressed = false
    private var handlers = Handlers()
    private let scheduler: any DeadlineScheduler
    private var longPressTimer: ScheduledTimer?
    /// When the pending long press falls due.
    private var longPressDeadline: MonotonicTime?

    private struct Handlers {
        var valueChanged: DDControllerButtonHandler?
        var pressedChanged: DDControllerButtonHandler?
        var longPress: DDControllerButtonHandler?
    }

    /// The controllers' buttons: the Daydream's five, then the Gear VR's and Oculus Go's trigger and back.
    public enum Kind: String, CaseIterable, Sendable {
        case click, app, home, volumeUp = "volume-up", volumeDown = "volume-down", trigger, back
    }

    init(kind: Kind, scheduler: any DeadlineScheduler) {
        self.kind = kind
        self.scheduler = scheduler
    }

    /// Applies the state from one packet received at `time`.
    func update(pressed isDown: Bool, at time: MonotonicTime) {
        let changed = isDown != pressed
        if changed {
            // A release read after the long press fell due (a busy loop handles the
            // packet before the timer) still ends a long press: it comes first.
            if !isDown, longPressTimer != nil, let longPressDeadline, time >= longPressDeadline {
                fireLongPress()
            }
            pressed = isDown
            longPressTimer?.cancel()
            longPressTimer = nil
            longPressDeadline = nil
            if isDown {
                let deadline = time + longPressDuration
                longPressDeadline = deadline
                longPressTimer = scheduler.schedule(at: deadline) { [weak self] in
                    self?.fireLongPress()
                }
            }
        }
        handlers.valueChanged?(self, isDown)
        if changed { handlers.pressedChanged?(self, isDown) }
    }

    /// Releases the button (for a disconnect), calling the handlers if it was down.
    func release() {
        guard pressed else { return }
        longPressTimer?.cancel()
        longPressTimer = nil
        longPressDeadline = nil
        pressed = false
        handlers.valueChanged?(self, false)
        handlers.pressedChanged?(self, false)
    }

    private func fireLongPress() {
        longPressTimer?.cancel()
        longPressTimer = nil
        guard pressed else { return }
        handlers.longPress?(self, true)
    }
}
