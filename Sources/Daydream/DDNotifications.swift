import DaydreamCore
import Foundation

extension Notification.Name {
    /// Posted with the `DDController` as the object when a controller connects and streams.
    public static let DDControllerDidConnect = ControllerNotificationPoster.name(of: .didConnect)
    /// Posted with the `DDController` as the object when a controller disconnects.
    public static let DDControllerDidDisconnect = ControllerNotificationPoster.name(of: .didDisconnect)
    /// Posted with the `DDController` as the object when its battery level was read.
    public static let DDControllerDidUpdateBatteryLevel = ControllerNotificationPoster.name(of: .didUpdateBatteryLevel)
}
