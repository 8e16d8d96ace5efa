import DaydreamProtocol

/// A closure called with the touchpad and its new point.
public typealias DDControllerTouchpadPointChangedHandler = @MainActor (DDControllerTouchpad, TouchPoint) -> Void

/// The controller's circular touchpad.
@MainActor
public final class DDControllerTouchpad {
    /// Called when the point changes, including when the finger lifts (the point becomes (0, 0)).
    public var pointChangedHandler: DDControllerTouchpadPointChangedHandler?

    /// Where the finger is, x 0 (left) ... 1 (right), y 0 (top) ... 1 (bottom); (0, 0) with no finger.
    public private(set) var point = TouchPoint(x: 0, y: 0)
    /// Whether a finger is on the touchpad.
    public private(set) var isTouching = false
    /// The button under the touchpad (the same object as `DDController.clickButton`).
    public let button: DDControllerButton

    init(button: DDControllerButton) {
        self.button = button
    }

    /// Applies the touch from one packet: `nil` means no finger.
    func update(_ touch: TouchPoint?) {
        let newPoint = touch ?? TouchPoint(x: 0, y: 0)
        let touching = touch != nil
        guard newPoint != point || touching != isTouching else { return }
        point = newPoint
        isTouching = touching
        pointChangedHandler?(self, newPoint)
    }
}
