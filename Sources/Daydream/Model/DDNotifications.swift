import Foundation

extension Notification.Name {
    /// Posted with the `DDController` as the object when a controller connects and streams.
    public static let DDControllerDidConnect = Notification.Name("DDControllerDidConnect")
    /// Posted with the `DDController` as the object when a controller disconnects.
    public static let DDControllerDidDisconnect = Notification.Name("DDControllerDidDisconnect")
    /// Posted with the `DDController` as the object when its battery level was read.
    public static let DDControllerDidUpdateBatteryLevel = Notification.Name("DDControllerDidUpdateBatteryLevel")
}
