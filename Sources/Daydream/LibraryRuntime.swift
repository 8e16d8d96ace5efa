import BlueZ
import DBus
import DaydreamCore
import EventLoop

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
                reactor: reactor, connection: connection, options: .init(policy: .pairedOnly))
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
