import BlueZ
import EventLoop
import Foundation

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

/// The loop, its dispatch driver and the manager behind the static API, made on first use.
@MainActor
final class LibraryRuntime {
    static let shared = LibraryRuntime()

    private(set) var reactor: Reactor?
    private var driver: MainQueueDriver?
    private(set) var existingManager: DaydreamControllerManager?
    /// The bus to use instead of the system bus (tests).
    var busAddressOverride: String?

    var manager: DaydreamControllerManager? {
        if let existingManager { return existingManager }
        do {
            let reactor = try Reactor()
            let connection = try BusConnection(address: busAddressOverride ?? BusConnection.systemBusAddress, reactor: reactor)
            let manager = DaydreamControllerManager(
                reactor: reactor, connection: connection, options: .init(policy: .pairNewControllers))
            self.reactor = reactor
            driver = MainQueueDriver(reactor: reactor)
            existingManager = manager
            return manager
        } catch {
            Log.error("Daydream: cannot start discovery: \(error)")
            return nil
        }
    }

    /// Stops everything and forgets the manager (tests).
    func reset() {
        existingManager?.stop()
        existingManager = nil
        driver?.cancel()
        driver = nil
        reactor = nil
        busAddressOverride = nil
    }
}
