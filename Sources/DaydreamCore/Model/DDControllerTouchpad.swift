import DaydreamProtocol

/// A closure called with the touchpad and its new point.
public typealias DDControllerTouchpadPointChangedHandler = @MainActor (DDControllerTouchpad, TouchPoint) -> Void

/// The controller's circular touchpad.
@MainActor
public final class DDControllerTouchpad {
    /// Called when the point changes, including when the finger lifts (the point becomes (0, 0)).
    public var pointChangedHandler: DDControllerTouchpadPointChangedHandler? {
        get { handler }
        set { handler = newValue }
    }

    /// Where the finger is, x 0 (left) ... 1 (right), y 0 (top) ... 1 (bottom); (0, 0) with no finger.
    public var point: TouchPoint { touch.point }
    /// Whether a finger is on the touchpad.
    public var isTouching: Bool { touch.isTouching }

    // Private storage behind public accessors: with every access inside this module, the
    // optimiser can prove they never overlap and drop the run-time exclusivity checks that
    // public stored properties pay on every packet.
    private var handler: DDControllerTouchpadPointChangedHandler?
    private var touch = Touch()

    private struct Touch: Equatable {
        var point = TouchPoint(x: 0, y: 0)
        var isTouching = false
    }
    /// The button under the touchpad (the same object as `DDController.clickButton`).
    public let button: DDControllerButton

    init(button: DDControllerButton) {
        self.button = button
    }

    /// Applies the touch from one packet: `nil` means no finger.
    func update(_ point: TouchPoint?) {
        let new = Touch(point: point ?? TouchPoint(x: 0, y: 0), isTouching: point != nil)
        guard new != touch else { return }
        touch = new
        handler?(self, new.point)
    }
}
