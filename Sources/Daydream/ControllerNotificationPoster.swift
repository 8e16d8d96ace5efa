import DaydreamCore
import Foundation

/// Posts every controller's `DDControllerEvent` on `NotificationCenter.default` as the iOS
/// library's notification, with the `DDController` as the object, on the main thread, at the
/// moment the model reports it.
///
/// Observing a notification needs its name, so reading any of the three names starts the
/// posting (as does starting discovery); before that, no observer could hear a post.
enum ControllerNotificationPoster {
    /// Lives for the rest of the program once made.
    private static let observation = DDController.observeEvents { controller, event in
        NotificationCenter.default.post(name: name(of: event), object: controller)
    }

    /// Starts posting, if it has not started yet. Safe from any thread.
    static func start() {
        _ = observation
    }

    /// The notification posted for `event`; starts the posting.
    static func name(of event: DDControllerEvent) -> Notification.Name {
        start()
        switch event {
        case .didConnect: return Notification.Name("DDControllerDidConnect")
        case .didDisconnect: return Notification.Name("DDControllerDidDisconnect")
        case .didUpdateBatteryLevel: return Notification.Name("DDControllerDidUpdateBatteryLevel")
        }
    }
}
