/// A change in a controller that the whole program may want to hear about, not only the
/// code that owns the controller: the link coming up or going down, and a new battery level.
///
/// `DDController.observeEvents(_:)` delivers them. The `Daydream` module posts each one as the
/// iOS library's notification (`.DDControllerDidConnect`, `.DDControllerDidDisconnect`,
/// `.DDControllerDidUpdateBatteryLevel`); code that must not load Foundation, such as the
/// daemon, observes them here instead.
public enum DDControllerEvent: Hashable, Sendable, CaseIterable {
    /// The controller connected and streams (`markConnected()`).
    case didConnect
    /// The controller's link went down; its buttons were released first (`markDisconnected()`).
    case didDisconnect
    /// A battery level was read (`setBatteryLevel(percent:)`); `batteryLevel` holds it.
    case didUpdateBatteryLevel
}
