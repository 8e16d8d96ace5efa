import BlueZ
import DaydreamCore
import EventLoop

/// The paired controllers, through BlueZ: the daemon's usual source of controllers.
///
/// `DaydreamControllerManager` connects to every paired controller and reconnects with backoff; each
/// one that connects is handed to the daemon. Problems (BlueZ not running, no adapter, adapter off or
/// blocked) are logged by the manager, one line each saying what to do, and shown in the status.
/// With `pairFirst`, discovery runs until an unpaired controller shows up, and it is paired.
@MainActor
public final class BluetoothControllerSource {
    /// The manager, for the daemon's status.
    public let manager: DaydreamControllerManager
    private let pairFirst: Bool
    private var pairing = false

    /// A source on the system bus (`$DAYDREAM_DBUS_ADDRESS` overrides it for tests).
    public init(reactor: Reactor, pairFirst: Bool) throws(DBusError) {
        manager = try DaydreamControllerManager(reactor: reactor, options: DaydreamControllerManager.Options(policy: .pairedOnly))
        self.pairFirst = pairFirst
    }

    /// Starts following BlueZ; `found` gets every controller that connects (again on each reconnection),
    /// `problem` every problem the manager reports (nil when it clears is not reported: the next
    /// connection updates the status).
    public func start(found: @escaping @MainActor (DDController) -> Void, problem: @escaping @MainActor (String) -> Void) {
        manager.controllerConnected = { found($0) }
        manager.problemHandler = { problem($0.description) }
        if pairFirst {
            manager.controllerSighted = { [weak self] device in self?.pairIfNew(device) }
            Logger.notice("looking for an unpaired controller to pair: hold its home button until the light blinks")
            manager.startDiscovery()
        }
        manager.start()
    }

    /// Stops following BlueZ (the controllers stay connected to BlueZ).
    public func stop() {
        manager.stop()
    }

    private func pairIfNew(_ device: DeviceInfo) {
        guard !pairing, device.isDaydreamController, !device.isPaired else { return }
        pairing = true
        Logger.notice("pairing \(device.address) (\(device.name ?? "no name"))")
        manager.pair(address: device.address) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let controller):
                Logger.notice("paired and trusted \(controller.address)")
                self.manager.controllerSighted = nil
                self.manager.stopDiscovery()
            case .failure(let error):
                Logger.error("pairing \(device.address) failed: \(error); still looking")
                self.pairing = false
            }
        }
    }
}
