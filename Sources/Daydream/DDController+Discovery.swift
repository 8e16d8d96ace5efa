import DaydreamCore

/// The library's discovery API, as in the iOS library. It runs a
/// `DaydreamControllerManager` on the system bus, driven from the main
/// dispatch queue: the program must run it (`dispatchMain()`,
/// `RunLoop.main.run()`, or an app's main loop).
extension DDController {
    /// Starts looking for Daydream controllers and connecting to them. Paired
    /// controllers connect; an unpaired one is paired first (Just Works).
    /// `.DDControllerDidConnect` is posted for each controller that connects.
    /// Problems (no bluetoothd, no adapter) are logged; the search goes on
    /// and resumes when they are fixed.
    public static func startDaydreamControllerDiscovery() {
        ControllerNotificationPoster.start()
        guard let manager = LibraryRuntime.shared.manager else { return }
        manager.start()
        manager.startDiscovery()
    }

    /// Stops looking for new controllers. Connected controllers stay connected.
    public static func stopDaydreamControllerDiscovery() {
        LibraryRuntime.shared.existingManager?.stopDiscovery()
    }

    /// The controllers connected now.
    public static var controllers: [DDController] {
        LibraryRuntime.shared.existingManager?.connectedControllers ?? []
    }
}
